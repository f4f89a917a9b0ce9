package dev.converge.client.internal;

import io.fabric8.kubernetes.client.okhttp.OkHttpClientFactory;
import java.util.List;
import java.util.Objects;
import okhttp3.CipherSuite;
import okhttp3.ConnectionSpec;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;

/**
 * fabric8's OkHttp client offering TLS cipher suites in the order of a {@link CipherPreference}.
 * Everything else of the connection specs fabric8 configured (the TLS versions of the client's
 * {@code Config}, plain HTTP) is kept.
 */
public final class PreferringOkHttpClientFactory extends OkHttpClientFactory {

  private final CipherPreference preference;
  private final List<Interceptor> networkInterceptors;

  public PreferringOkHttpClientFactory(CipherPreference preference) {
    this(preference, List.of());
  }

  public PreferringOkHttpClientFactory(
      CipherPreference preference, List<Interceptor> networkInterceptors) {
    this.preference = Objects.requireNonNull(preference, "preference");
    this.networkInterceptors = List.copyOf(networkInterceptors);
  }

  @Override
  protected void additionalConfig(OkHttpClient.Builder builder) {
    networkInterceptors.forEach(builder::addNetworkInterceptor);
    if (preference == CipherPreference.DEFAULT) {
      return;
    }
    CipherSuite[] order = preference.order().toArray(CipherSuite[]::new);
    // OkHttp's builder has no getter; a client built from it (no threads, no connections) shows
    // the specs fabric8 set
    List<ConnectionSpec> specs =
        builder.build().connectionSpecs().stream()
            .map(
                spec ->
                    spec.isTls() && spec.cipherSuites() != null
                        ? new ConnectionSpec.Builder(spec).cipherSuites(order).build()
                        : spec)
            .toList();
    builder.connectionSpecs(specs);
  }
}
