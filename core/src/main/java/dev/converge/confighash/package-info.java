/**
 * {@link dev.converge.confighash.ConfigHash}: a stable hash of referenced ConfigMaps and Secrets
 * for a pod-template annotation, so that a change of their content rolls the pods.
 */
package dev.converge.confighash;
