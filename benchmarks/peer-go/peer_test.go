package main

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
)

// The expected hashes are what the example's ConfigHash (Java) returns for the same content, so
// both operators roll pods to the same annotation value.
func TestConfigHashMatchesTheExamples(t *testing.T) {
	cases := []struct {
		cm   corev1.ConfigMap
		want string
	}{
		{corev1.ConfigMap{Data: map[string]string{"GREETING": "hello", "VERSION": "v1"}}, "202b4d5e316cc90f"},
		{corev1.ConfigMap{Data: map[string]string{"GREETING": "hello", "VERSION": "v2"}}, "754639f9ac5a053f"},
		{corev1.ConfigMap{Data: map[string]string{"a": "bc"}, BinaryData: map[string][]byte{"bin": {0, 1, 2}}}, "7e43a1ceec2c024e"},
		{corev1.ConfigMap{}, "204ffe8bfdb55f9e"},
	}
	for _, c := range cases {
		if got := configHash(&c.cm); got != c.want {
			t.Errorf("configHash(%v, %v) = %s, want %s", c.cm.Data, c.cm.BinaryData, got, c.want)
		}
	}
}

func TestRolloutIsCurrentOnlyWhenEveryPodOfTheLatestTemplateIsAvailable(t *testing.T) {
	status := func(observed int64, updated, replicas, ready, available int32) *appsv1ac.DeploymentApplyConfiguration {
		return appsv1ac.Deployment("app", "ns").WithGeneration(2).
			WithSpec(appsv1ac.DeploymentSpec().WithReplicas(2)).
			WithStatus(appsv1ac.DeploymentStatus().WithObservedGeneration(observed).
				WithUpdatedReplicas(updated).WithReplicas(replicas).
				WithReadyReplicas(ready).WithAvailableReplicas(available))
	}
	cases := []struct {
		d       *appsv1ac.DeploymentApplyConfiguration
		current bool
		message string
	}{
		{status(1, 2, 2, 2, 2), false, "the Deployment controller has not yet observed generation 2 (last observed 1)"},
		{status(2, 1, 2, 2, 2), false, "1 of 2 pods are of the current template"},
		{status(2, 2, 3, 2, 2), false, "1 pods of an older template are still running"},
		{status(2, 2, 2, 1, 1), false, "1 of 2 pods are ready"},
		{status(2, 2, 2, 2, 1), false, "1 of 2 pods are available"},
		{status(2, 2, 2, 2, 2), true, "2 of 2 pods of the current template are ready"},
		{appsv1ac.Deployment("app", "ns").WithGeneration(1), false, "the Deployment controller has not reported a status yet"},
	}
	for _, c := range cases {
		got := rolloutOf(c.d)
		if got.current != c.current || got.message != c.message {
			t.Errorf("rolloutOf = %+v, want current=%v %q", got, c.current, c.message)
		}
	}
	if !observedLatest(status(2, 0, 0, 0, 0)) || observedLatest(status(1, 0, 0, 0, 0)) {
		t.Error("observedLatest must compare status.observedGeneration with metadata.generation")
	}
}
