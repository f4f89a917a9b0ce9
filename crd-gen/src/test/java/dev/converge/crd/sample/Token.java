package dev.converge.crd.sample;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/** A value class written as one string by its {@code @JsonValue}. */
public final class Token {
  private final String text;

  @JsonCreator
  public Token(String text) {
    this.text = text;
  }

  @JsonValue
  public String text() {
    return text;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Token token && Objects.equals(text, token.text);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(text);
  }
}
