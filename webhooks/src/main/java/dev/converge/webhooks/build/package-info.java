/** The build step that writes the webhook configurations and CRD conversion stanzas. */
package dev.converge.webhooks.build;
