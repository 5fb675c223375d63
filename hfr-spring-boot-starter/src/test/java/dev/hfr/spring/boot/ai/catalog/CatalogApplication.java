package dev.hfr.spring.boot.ai.catalog;

import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

/** The user's configuration: component scanning of this package. */
@Configuration(proxyBeanMethods = false)
@ComponentScan
public class CatalogApplication {}
