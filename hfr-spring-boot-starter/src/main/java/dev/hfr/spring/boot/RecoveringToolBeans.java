package dev.hfr.spring.boot;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;

/**
 * Makes every bean whose class has a generated {@code <Class>_Recovering} proxy a bean of that proxy: the
 * container then instantiates the proxy instead, through its constructor that mirrors the tool's own with the
 * {@code RecoveryEngine} first, so constructor injection (and {@code @Autowired ShopTools}) works as before and
 * every call goes through HFR. The definition is changed before any bean exists; nothing is wrapped afterwards.
 *
 * <p>Beans made by {@code @Bean} methods are not touched (the method decides the instance): return
 * {@code ShopTools_Recovering.create(hfr, ...)} from such a method.
 */
public final class RecoveringToolBeans implements BeanDefinitionRegistryPostProcessor, BeanClassLoaderAware, Ordered {

  /** The suffix the processor gives a proxy (docs/PROCESSOR.md). */
  static final String PROXY_SUFFIX = "_Recovering";

  /**
   * The bean definition attribute naming the user's class of a bean made its proxy here, so that other parts of
   * the starter (the Spring AI tool callbacks) find the protected tools without instantiating anything.
   */
  public static final String TOOL_CLASS_ATTRIBUTE = "dev.hfr.spring.boot.toolClass";

  private ClassLoader classLoader = ClassUtils.getDefaultClassLoader();

  @Override
  public void setBeanClassLoader(ClassLoader classLoader) {
    this.classLoader = classLoader;
  }

  @Override
  public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
    List<String> unprotected = new ArrayList<>();
    for (String name : registry.getBeanDefinitionNames()) {
      BeanDefinition definition = registry.getBeanDefinition(name);
      String className = definition.getBeanClassName();
      if (className == null || definition.getFactoryMethodName() != null || className.endsWith(PROXY_SUFFIX)) {
        continue;
      }
      Class<?> proxy = proxyOf(className);
      if (proxy == null) {
        if (carriesHfrAnnotations(className)) {
          unprotected.add(className);
        }
        continue;
      }
      definition.setAttribute(TOOL_CLASS_ATTRIBUTE, className);
      if (definition instanceof AbstractBeanDefinition abstractDefinition) {
        abstractDefinition.setBeanClass(proxy);
      } else {
        definition.setBeanClassName(proxy.getName());
      }
    }
    if (!unprotected.isEmpty()) {
      throw new MissingProxyException(unprotected);
    }
  }

  /**
   * Whether a method of the class carries an annotation of {@code dev.hfr.annotations} (what makes the processor
   * generate a proxy). The class is loaded, not initialised; Spring's and the JDK's own classes are skipped.
   */
  private boolean carriesHfrAnnotations(String className) {
    if (className.startsWith("org.springframework.") || className.startsWith("java.")) {
      return false;
    }
    Class<?> type;
    try {
      type = ClassUtils.forName(className, classLoader);
    } catch (ClassNotFoundException | LinkageError e) {
      return false; // Spring reports a class it cannot load itself
    }
    for (Method m : type.getDeclaredMethods()) {
      for (Annotation a : m.getDeclaredAnnotations()) {
        if (a.annotationType().getPackageName().equals("dev.hfr.annotations")) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {}

  /** Before the other registry post-processors, so they see the proxies' definitions. */
  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  private Class<?> proxyOf(String className) {
    String proxyName = className + PROXY_SUFFIX;
    if (!ClassUtils.isPresent(proxyName, classLoader)) {
      return null;
    }
    Class<?> proxy = ClassUtils.resolveClassName(proxyName, classLoader);
    Class<?> tool = ClassUtils.resolveClassName(className, classLoader);
    return tool.isAssignableFrom(proxy) ? proxy : null;
  }
}
