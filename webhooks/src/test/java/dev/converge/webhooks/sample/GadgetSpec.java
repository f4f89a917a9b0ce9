package dev.converge.webhooks.sample;

import com.fasterxml.jackson.annotation.JsonInclude;

/** v1's spec: a colour, one port and a ConfigMap that must exist. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GadgetSpec(String color, Integer port, String configMapName) {}
