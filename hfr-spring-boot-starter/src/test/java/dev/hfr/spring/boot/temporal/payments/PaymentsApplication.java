package dev.hfr.spring.boot.temporal.payments;

import dev.hfr.spring.boot.HfrAutoConfiguration;
import dev.hfr.spring.boot.temporal.HfrTemporalAutoConfiguration;
import io.temporal.spring.boot.autoconfigure.RootNamespaceAutoConfiguration;
import io.temporal.spring.boot.autoconfigure.ServiceStubsAutoConfiguration;
import io.temporal.spring.boot.autoconfigure.TestServerAutoConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

/**
 * The user's application in the tests: component scanning of this package, HFR's and Temporal's
 * auto-configurations (listed rather than all of the test class path's, which hold a DataSource's without a URL).
 */
@Configuration(proxyBeanMethods = false)
@ComponentScan
@ImportAutoConfiguration({HfrAutoConfiguration.class, HfrTemporalAutoConfiguration.class,
    TestServerAutoConfiguration.class, ServiceStubsAutoConfiguration.class, RootNamespaceAutoConfiguration.class})
public class PaymentsApplication {}
