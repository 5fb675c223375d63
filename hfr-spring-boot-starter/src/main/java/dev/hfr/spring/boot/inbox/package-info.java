/**
 * The inbox in Spring Boot: the {@code hfrinbox} Actuator endpoint (list, get, answer — answers need an authenticated
 * person with the role {@value dev.hfr.spring.boot.inbox.HfrInboxEndpoint#ROLE}) and the application's inbox listener beans.
 */
package dev.hfr.spring.boot.inbox;
