package dev.converge.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import okhttp3.CipherSuite;
import okhttp3.ConnectionSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CipherPreferenceTest {

  @AfterEach
  void clearProperty() {
    System.clearProperty(CipherPreference.PROPERTY);
  }

  @Test
  void chacha20FirstPutsTheChaCha20SuitesAheadAndKeepsEveryOtherSuiteInOrder() {
    List<CipherSuite> order = CipherPreference.CHACHA20_FIRST.order();

    assertThat(order.subList(0, 3))
        .containsExactly(
            CipherSuite.TLS_CHACHA20_POLY1305_SHA256,
            CipherSuite.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
            CipherSuite.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256);
    assertThat(order.subList(3, 6))
        .containsExactly(
            CipherSuite.TLS_AES_128_GCM_SHA256,
            CipherSuite.TLS_AES_256_GCM_SHA384,
            CipherSuite.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256);
    assertThat(order).containsExactlyInAnyOrderElementsOf(ConnectionSpec.MODERN_TLS.cipherSuites());
  }

  @Test
  void defaultKeepsOkHttpsOrder() {
    assertThat(CipherPreference.DEFAULT.order())
        .containsExactlyElementsOf(ConnectionSpec.MODERN_TLS.cipherSuites());
    assertThat(CipherPreference.DEFAULT.order().get(0))
        .isEqualTo(CipherSuite.TLS_AES_128_GCM_SHA256);
  }

  @Test
  void thePropertyChoosesAndAutoFollowsTheCompiler() {
    System.setProperty(CipherPreference.PROPERTY, "ChaCha20-First");
    assertThat(CipherPreference.fromSystem()).isEqualTo(CipherPreference.CHACHA20_FIRST);
    System.setProperty(CipherPreference.PROPERTY, "default");
    assertThat(CipherPreference.fromSystem()).isEqualTo(CipherPreference.DEFAULT);
    System.setProperty(CipherPreference.PROPERTY, "auto");
    // the tests run on a JVM with C2
    assertThat(CipherPreference.withoutOptimizingCompiler()).isFalse();
    assertThat(CipherPreference.fromSystem()).isEqualTo(CipherPreference.DEFAULT);
  }

  @Test
  void anUnknownValueNamesThePropertyAndTheChoices() {
    System.setProperty(CipherPreference.PROPERTY, "fastest");
    assertThatThrownBy(CipherPreference::fromSystem)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("converge.tls.cipher-preference")
        .hasMessageContaining("'fastest'")
        .hasMessageContaining("auto, chacha20-first or default");
  }
}
