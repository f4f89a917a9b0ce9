package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The AppDeployment API, apps.converge.dev/v1, as the example operator's CRD defines it
// (example-operator/.../api). The API server applies the schema's defaults (replicas 1,
// port 8080); the operator still falls back to them for an object stored before they existed.

var groupVersion = schema.GroupVersion{Group: "apps.converge.dev", Version: "v1"}

const (
	defaultReplicas = 1
	defaultPort     = 8080

	phasePending = "Pending"
	phaseRunning = "Running"
	phaseFailed  = "Failed"

	conditionReady          = "Ready"
	conditionConfigResolved = "ConfigResolved"
)

// AppDeployment is an application the operator runs: a Deployment of spec.image with
// spec.replicas pods, its environment from the ConfigMap spec.configMapName, and a ClusterIP
// Service in front of spec.port.
type AppDeployment struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   AppDeploymentSpec   `json:"spec"`
	Status AppDeploymentStatus `json:"status,omitempty"`
}

// AppDeploymentSpec is what the user asks for.
type AppDeploymentSpec struct {
	Image         string `json:"image"`
	Replicas      *int32 `json:"replicas,omitempty"`
	ConfigMapName string `json:"configMapName,omitempty"`
	Port          *int32 `json:"port,omitempty"`
}

// AppDeploymentStatus is what the operator observed, written through the status subresource.
type AppDeploymentStatus struct {
	Phase              string             `json:"phase,omitempty"`
	ReadyReplicas      *int32             `json:"readyReplicas,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
	ObservedGeneration *int64             `json:"observedGeneration,omitempty"`
}

// AppDeploymentList is a page of AppDeployments, as list and watch return them.
type AppDeploymentList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []AppDeployment `json:"items"`
}

func (s AppDeploymentSpec) replicas() int32 {
	if s.Replicas == nil {
		return defaultReplicas
	}
	return *s.Replicas
}

func (s AppDeploymentSpec) port() int32 {
	if s.Port == nil {
		return defaultPort
	}
	return *s.Port
}

func addToScheme(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(groupVersion, &AppDeployment{}, &AppDeploymentList{})
	metav1.AddToGroupVersion(scheme, groupVersion)
	return nil
}

// DeepCopyObject, DeepCopyInto and DeepCopy are what controller-gen would generate.

func (in *AppDeployment) DeepCopyInto(out *AppDeployment) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Spec.DeepCopyInto(&out.Spec)
	in.Status.DeepCopyInto(&out.Status)
}

func (in *AppDeployment) DeepCopy() *AppDeployment {
	if in == nil {
		return nil
	}
	out := new(AppDeployment)
	in.DeepCopyInto(out)
	return out
}

func (in *AppDeployment) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}

func (in *AppDeploymentSpec) DeepCopyInto(out *AppDeploymentSpec) {
	*out = *in
	if in.Replicas != nil {
		out.Replicas = new(int32)
		*out.Replicas = *in.Replicas
	}
	if in.Port != nil {
		out.Port = new(int32)
		*out.Port = *in.Port
	}
}

func (in *AppDeploymentStatus) DeepCopyInto(out *AppDeploymentStatus) {
	*out = *in
	if in.ReadyReplicas != nil {
		out.ReadyReplicas = new(int32)
		*out.ReadyReplicas = *in.ReadyReplicas
	}
	if in.Conditions != nil {
		out.Conditions = make([]metav1.Condition, len(in.Conditions))
		for i := range in.Conditions {
			in.Conditions[i].DeepCopyInto(&out.Conditions[i])
		}
	}
	if in.ObservedGeneration != nil {
		out.ObservedGeneration = new(int64)
		*out.ObservedGeneration = *in.ObservedGeneration
	}
}

func (in *AppDeploymentList) DeepCopyInto(out *AppDeploymentList) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]AppDeployment, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

func (in *AppDeploymentList) DeepCopy() *AppDeploymentList {
	if in == nil {
		return nil
	}
	out := new(AppDeploymentList)
	in.DeepCopyInto(out)
	return out
}

func (in *AppDeploymentList) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}
