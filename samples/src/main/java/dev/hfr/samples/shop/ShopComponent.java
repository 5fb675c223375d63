package dev.hfr.samples.shop;

import dagger.BindsInstance;
import dagger.Component;
import dev.hfr.runtime.RecoveryEngine;
import jakarta.inject.Singleton;

/**
 * The demo's Dagger component. {@code ShopTools_HfrModule} (generated) binds {@link ShopTools} to
 * {@code ShopTools_Recovering}, so {@link #shopTools()} hands out the recovering proxy.
 */
// tag::component[]
@Singleton
@Component(modules = ShopTools_HfrModule.class)
public interface ShopComponent {

  /** The shop's tools, running through HFR. */
  ShopTools shopTools();

  /** Creates the component from the engine and the HTTP client. */
  @Component.Factory
  interface Factory {
    ShopComponent create(@BindsInstance RecoveryEngine engine, @BindsInstance ShopApi api);
  }
}
// end::component[]
