package dev.converge.naming;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DnsLabelTest {

  @Test
  void serviceNamesThatTheApiServerAcceptsAreRfc1035Labels() {
    assertThat(DnsLabel.isRfc1035("web")).isTrue();
    assertThat(DnsLabel.isRfc1035("a")).isTrue();
    assertThat(DnsLabel.isRfc1035("web-2")).isTrue();
    assertThat(DnsLabel.isRfc1035("a".repeat(63))).isTrue();
  }

  @Test
  void aNameTheApiServerRefusesForAServiceSaysWhyAndQuotesIt() {
    assertThat(DnsLabel.rfc1035Problem("a".repeat(64)))
        .hasValueSatisfying(
            problem -> assertThat(problem).contains("64 characters").contains("at most 63"));
    assertThat(DnsLabel.rfc1035Problem("2web"))
        .hasValueSatisfying(
            problem -> assertThat(problem).contains("'2web'").contains("starting with a letter"));
    assertThat(DnsLabel.rfc1035Problem("web.v2")).isPresent();
    assertThat(DnsLabel.rfc1035Problem("Web")).isPresent();
    assertThat(DnsLabel.rfc1035Problem("web-")).isPresent();
    assertThat(DnsLabel.rfc1035Problem(""))
        .hasValueSatisfying(p -> assertThat(p).contains("empty"));
    assertThat(DnsLabel.rfc1035Problem(null)).isPresent();
  }

  @Test
  void rfc1123LabelsMayStartWithADigit() {
    assertThat(DnsLabel.isRfc1123("2web")).isTrue();
    assertThat(DnsLabel.isRfc1123("web.v2")).isFalse();
    assertThat(DnsLabel.rfc1123Problem("-web"))
        .hasValueSatisfying(p -> assertThat(p).contains("DNS-1123"));
  }

  @Test
  void aHugeValueIsQuotedShortSoTheMessageStaysReadable() {
    String problem = DnsLabel.rfc1035Problem("x".repeat(100_000)).orElseThrow();
    assertThat(problem).contains("100000 characters").hasSizeLessThan(300);
  }
}
