package dev.converge.crd.sample;

/** Status of {@link Widget}. */
public record WidgetStatus(String phase, Integer observedSize) {}
