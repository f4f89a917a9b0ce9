/** Implementation of the webhook server, its certificates and its manifests; not API. */
package dev.converge.webhooks.internal;
