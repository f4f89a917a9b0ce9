package dev.converge.client.internal;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import okhttp3.CipherSuite;
import okhttp3.ConnectionSpec;

/**
 * Which TLS cipher suites the client offers first.
 *
 * <p>The JDK encrypts AES-GCM with processor instructions only in code its optimizing compiler (C2)
 * compiled. A JVM limited to the client compiler ({@code -XX:TieredStopAtLevel=1}, which saves an
 * operator the optimizing compiler's warm-up) runs AES-GCM as plain Java: measured on an AMD EPYC
 * with JDK 17, 38 MB/s against 1,700 MB/s with C2, while ChaCha20-Poly1305, designed to be fast in
 * software, ran at 170 MB/s. An operator decrypts every watch event and response it receives, so on
 * such a JVM Converge's client lists the ChaCha20-Poly1305 suites first. A Go server (the API
 * server) takes the client's first choice when it is not AES-GCM; a server that does not offer
 * ChaCha20 (a FIPS build) takes the next, so nothing that connected before fails to connect now. On
 * a JVM with C2 the order stays OkHttp's.
 */
public enum CipherPreference {
  /** ChaCha20-Poly1305 suites first, then the others of OkHttp's modern set in its order. */
  CHACHA20_FIRST,
  /** OkHttp's modern set in its order (AES-GCM first). */
  DEFAULT;

  /**
   * The system property that chooses the preference: {@code chacha20-first}, {@code default} or
   * {@code auto} (unset: {@code auto}, ChaCha20 first when the JVM runs without C2).
   */
  public static final String PROPERTY = "converge.tls.cipher-preference";

  /**
   * The preference {@value #PROPERTY} asks for, or for {@code auto} the one this JVM's compilers
   * call for.
   *
   * @return the preference the client is built with
   * @throws IllegalArgumentException if the property has another value, naming it
   */
  public static CipherPreference fromSystem() {
    String value = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    return switch (value) {
      case "auto" -> withoutOptimizingCompiler() ? CHACHA20_FIRST : DEFAULT;
      case "chacha20-first" -> CHACHA20_FIRST;
      case "default" -> DEFAULT;
      default ->
          throw new IllegalArgumentException(
              "system property "
                  + PROPERTY
                  + " is '"
                  + value
                  + "'; expected auto, chacha20-first or default");
    };
  }

  /**
   * The cipher suites to offer, in order: OkHttp's modern set, reordered as this preference asks.
   * The set itself never changes, only its order, so a server accepts the same suites as before.
   *
   * @return the suites in the order the client offers them, immutable; empty only if OkHttp names
   *     no modern set
   */
  public List<CipherSuite> order() {
    List<CipherSuite> modern = ConnectionSpec.MODERN_TLS.cipherSuites();
    if (this == DEFAULT || modern == null) {
      return modern == null ? List.of() : modern;
    }
    List<CipherSuite> first = new ArrayList<>();
    List<CipherSuite> rest = new ArrayList<>();
    for (CipherSuite suite : modern) {
      (suite.javaName().contains("CHACHA20") ? first : rest).add(suite);
    }
    first.addAll(rest);
    return List.copyOf(first);
  }

  /**
   * True when HotSpot runs without C2: {@code -XX:TieredStopAtLevel} below 4 or the interpreter
   * only. False when that cannot be told (another VM).
   */
  static boolean withoutOptimizingCompiler() {
    try {
      HotSpotDiagnosticMXBean hotSpot =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      if (hotSpot == null) {
        return false;
      }
      int stopAt = Integer.parseInt(hotSpot.getVMOption("TieredStopAtLevel").getValue());
      boolean tiered = Boolean.parseBoolean(hotSpot.getVMOption("TieredCompilation").getValue());
      boolean compiling = Boolean.parseBoolean(hotSpot.getVMOption("UseCompiler").getValue());
      return !compiling || (tiered && stopAt < 4);
    } catch (RuntimeException | LinkageError notHotSpot) {
      return false;
    }
  }
}
