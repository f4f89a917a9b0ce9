package main

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// The labels, names and annotation the example puts on what it manages
// (example-operator/.../desired): the selector uses only the labels that can never change.
const (
	labelName      = "app.kubernetes.io/name"
	labelInstance  = "app.kubernetes.io/instance"
	labelManagedBy = "app.kubernetes.io/managed-by"
	managerValue   = "converge-app-operator"

	configHashAnnotation = "apps.converge.dev/config-hash"

	containerName = "app"
	portName      = "http"
)

func selectorLabels(app *AppDeployment) map[string]string {
	return map[string]string{labelInstance: app.Name, labelManagedBy: managerValue}
}

func allLabels(app *AppDeployment) map[string]string {
	return map[string]string{labelName: "appdeployment", labelInstance: app.Name, labelManagedBy: managerValue}
}

// ownerReference makes the AppDeployment the controller owner of what it asks for, so that the
// garbage collector removes the children with it and their events reach its controller.
func ownerReference(app *AppDeployment) *metav1ac.OwnerReferenceApplyConfiguration {
	return metav1ac.OwnerReference().
		WithAPIVersion(groupVersion.String()).
		WithKind("AppDeployment").
		WithName(app.Name).
		WithUID(app.UID).
		WithController(true).
		WithBlockOwnerDeletion(true)
}

// desiredDeployment is the Deployment an AppDeployment asks for, as a server-side apply of the
// fields the operator owns; the API server's defaults are left to the server. configHash is
// empty when the AppDeployment references no ConfigMap.
func desiredDeployment(app *AppDeployment, configHash string) *appsv1ac.DeploymentApplyConfiguration {
	container := corev1ac.Container().
		WithName(containerName).
		WithImage(app.Spec.Image).
		WithPorts(corev1ac.ContainerPort().
			WithName(portName).
			WithContainerPort(app.Spec.port()).
			WithProtocol(corev1.ProtocolTCP))
	if app.Spec.ConfigMapName != "" {
		container.WithEnvFrom(corev1ac.EnvFromSource().
			WithConfigMapRef(corev1ac.ConfigMapEnvSource().WithName(app.Spec.ConfigMapName)))
	}
	template := corev1ac.PodTemplateSpec().
		WithLabels(allLabels(app)).
		WithSpec(corev1ac.PodSpec().WithContainers(container))
	if configHash != "" {
		template.WithAnnotations(map[string]string{configHashAnnotation: configHash})
	}
	return appsv1ac.Deployment(app.Name, app.Namespace).
		WithLabels(allLabels(app)).
		WithOwnerReferences(ownerReference(app)).
		WithSpec(appsv1ac.DeploymentSpec().
			WithReplicas(app.Spec.replicas()).
			WithSelector(metav1ac.LabelSelector().WithMatchLabels(selectorLabels(app))).
			WithTemplate(template))
}

// mutateService sets the fields of the ClusterIP Service the operator owns on svc, the live
// Service or a new one, and leaves everything else, the allocated clusterIP first of all, as it
// is. It fails only when another controller owns the Service.
func mutateService(app *AppDeployment, svc *corev1.Service, scheme *runtime.Scheme) error {
	if svc.Labels == nil {
		svc.Labels = map[string]string{}
	}
	for k, v := range allLabels(app) {
		svc.Labels[k] = v
	}
	if err := controllerutil.SetControllerReference(app, svc, scheme); err != nil {
		return err
	}
	svc.Spec.Type = corev1.ServiceTypeClusterIP
	svc.Spec.Selector = selectorLabels(app)
	port := app.Spec.port()
	svc.Spec.Ports = []corev1.ServicePort{{
		Name:       portName,
		Protocol:   corev1.ProtocolTCP,
		Port:       port,
		TargetPort: intstr.FromInt32(port),
	}}
	return nil
}
