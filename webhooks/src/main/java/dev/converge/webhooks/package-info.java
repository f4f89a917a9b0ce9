/**
 * Admission (validating and mutating) and conversion webhooks that the API server calls over HTTPS:
 * typed handlers ({@link dev.converge.webhooks.Validator}, {@link dev.converge.webhooks.Defaulter},
 * {@link dev.converge.webhooks.Converter}) registered per kind in {@link
 * dev.converge.webhooks.Webhooks}, served by {@link dev.converge.webhooks.WebhookServer}, and the
 * matching webhook configurations and CRD conversion stanza from {@link
 * dev.converge.webhooks.WebhookManifests}.
 */
package dev.converge.webhooks;
