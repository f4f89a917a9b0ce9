package dev.converge.crd.sample;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import dev.converge.crd.annotation.ExactlyOneOf;
import dev.converge.crd.annotation.Rule;

/** A nested class with a type-level rule, description and alternatives. */
@JsonClassDescription("Where the widget is reached.")
@ExactlyOneOf({"url", "service"})
@Rule(value = "!has(self.url) || self.url.startsWith('https://')", message = "url must use https")
public class Endpoint {
  public String url;
  public String service;
}
