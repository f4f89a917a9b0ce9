/** Client key and TLS cipher details of the clients Converge builds; not part of the API. */
package dev.converge.client.internal;
