package dev.hfr.spring.boot.shop;

import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

/** The user's configuration in the tests: component scanning of this package, as an application has. */
@Configuration(proxyBeanMethods = false)
@ComponentScan
public class ShopApplication {}
