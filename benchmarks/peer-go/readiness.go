package main

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
)

// rollout is where a Deployment's rollout stands, read from its status as the Deployment
// controller wrote it, by the rules the example reads it with (kubectl rollout status's): a
// status that has not observed the latest generation says nothing about it; done when every
// desired replica is of the current template, ready and available and no old one is left.
type rollout struct {
	current bool
	message string
}

// observedLatest is true when the Deployment controller has looked at the latest generation.
func observedLatest(d *appsv1ac.DeploymentApplyConfiguration) bool {
	if d.Status == nil || d.Status.ObservedGeneration == nil {
		return false
	}
	return d.Generation == nil || *d.Status.ObservedGeneration >= *d.Generation
}

// readyReplicas is the ready pods the Deployment controller last reported, 0 without a status.
func readyReplicas(d *appsv1ac.DeploymentApplyConfiguration) int32 {
	if d.Status == nil {
		return 0
	}
	return deref(d.Status.ReadyReplicas)
}

// cachedReadyReplicas is readyReplicas of a Deployment read from the cache.
func cachedReadyReplicas(d *appsv1.Deployment) int32 {
	return d.Status.ReadyReplicas
}

// rolloutOf reads the rollout of a Deployment as the API server returned it from an apply.
func rolloutOf(d *appsv1ac.DeploymentApplyConfiguration) rollout {
	if d.DeletionTimestamp != nil {
		return rollout{false, "the Deployment is being deleted"}
	}
	if d.Status == nil || d.Status.ObservedGeneration == nil {
		return rollout{false, "the Deployment controller has not reported a status yet"}
	}
	if d.Generation != nil && *d.Status.ObservedGeneration < *d.Generation {
		return rollout{false, fmt.Sprintf(
			"the Deployment controller has not yet observed generation %d (last observed %d)",
			*d.Generation, *d.Status.ObservedGeneration)}
	}
	s := d.Status
	for _, c := range s.Conditions {
		if c.Type != nil && *c.Type == appsv1.DeploymentProgressing &&
			c.Reason != nil && *c.Reason == "ProgressDeadlineExceeded" {
			msg := "rollout exceeded its progress deadline"
			if c.Message != nil && *c.Message != "" {
				msg += ": " + *c.Message
			}
			return rollout{false, msg}
		}
	}
	desired := int32(1)
	paused := ""
	if d.Spec != nil {
		if d.Spec.Replicas != nil {
			desired = *d.Spec.Replicas
		}
		if d.Spec.Paused != nil && *d.Spec.Paused {
			paused = " (rollout paused: spec.paused is true)"
		}
	}
	updated, replicas := deref(s.UpdatedReplicas), deref(s.Replicas)
	ready, available := deref(s.ReadyReplicas), deref(s.AvailableReplicas)
	switch {
	case updated < desired:
		return rollout{false, fmt.Sprintf("%d of %d pods are of the current template%s", updated, desired, paused)}
	case replicas > updated:
		return rollout{false, fmt.Sprintf("%d pods of an older template are still running%s", replicas-updated, paused)}
	case ready < desired:
		return rollout{false, fmt.Sprintf("%d of %d pods are ready", ready, desired)}
	case available < desired:
		return rollout{false, fmt.Sprintf("%d of %d pods are available", available, desired)}
	case desired == 0:
		return rollout{true, "scaled to zero"}
	default:
		return rollout{true, fmt.Sprintf("%d of %d pods of the current template are ready", desired, desired)}
	}
}

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}
