package dev.hfr.samples.quickstart;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application of docs/getting-started/spring.md, as a user writes it from an empty project. */
// tag::application[]
@SpringBootApplication
public class QuickstartApplication {

  public static void main(String[] args) {
    SpringApplication.run(QuickstartApplication.class, args);
  }
}
// end::application[]
