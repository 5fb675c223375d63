package dev.hfr.samples.spring;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The shop assistant: a Spring Boot application with a Spring AI {@code ChatClient} on the OpenAI client, four
 * {@code @Tool} methods over the shop's services, and HFR from the starter — configured in {@code application.yml}
 * only. The services run in-process on loopback and fail {@code shop.fault-rate} of the requests.
 */
@SpringBootApplication
public class ShopSampleApplication {

  public static void main(String[] args) {
    SpringApplication.run(ShopSampleApplication.class, args);
  }

  /**
   * The shop's services on 127.0.0.1.
   *
   * @param faultRate the share of requests the services fail, half of them after the effect
   * @param seed the seed of the fault draws: the same seed, the same run
   */
  @Bean(destroyMethod = "close")
  LoopbackShop loopbackShop(@Value("${shop.fault-rate}") double faultRate, @Value("${shop.seed}") long seed) {
    return LoopbackShop.start(faultRate, seed);
  }
}
