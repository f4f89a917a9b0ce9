package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/distribution/reference"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/recorder"
)

const (
	// controllerName names the controller in logs and metrics, as the example names its own.
	controllerName = "appdeployment"

	// configMapIndex indexes AppDeployments by the ConfigMap they reference, so that a ConfigMap
	// change reconciles exactly those.
	configMapIndex = "spec.configMapName"

	// missingConfigRecheck is how long to wait before looking for a missing ConfigMap again; the
	// ConfigMap watch usually comes first.
	missingConfigRecheck = 30 * time.Second

	reasonInvalidImage      = "InvalidImage"
	reasonConfigMapNotFound = "ConfigMapNotFound"
)

// appReconciler reconciles one AppDeployment: its Deployment by server-side apply, its ClusterIP
// Service by create-or-update, the ConfigMap's content hash in the pod template, and its status.
type appReconciler struct {
	client.Client
	apiReader    client.Reader
	recorder     recorder.EventRecorder
	fieldManager string
}

// setupWithManager registers the controller: the AppDeployment filtered by generation (its own
// status writes come back as no reconcile), the Deployments and Services it owns, and the
// ConfigMaps AppDeployments reference, through an index, only when their content changed.
func (r *appReconciler) setupWithManager(ctx context.Context, mgr ctrl.Manager, workers int) error {
	if err := mgr.GetFieldIndexer().IndexField(ctx, &AppDeployment{}, configMapIndex,
		func(o client.Object) []string {
			if name := o.(*AppDeployment).Spec.ConfigMapName; name != "" {
				return []string{name}
			}
			return nil
		}); err != nil {
		return fmt.Errorf("index AppDeployments by %s: %w", configMapIndex, err)
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named(controllerName).
		For(&AppDeployment{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Owns(&appsv1.Deployment{}, builder.WithPredicates(predicate.ResourceVersionChangedPredicate{})).
		Owns(&corev1.Service{}, builder.WithPredicates(predicate.ResourceVersionChangedPredicate{})).
		Watches(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(r.referencing),
			builder.WithPredicates(contentChanged{})).
		WithOptions(controller.Options{MaxConcurrentReconciles: workers}).
		Complete(r)
}

// referencing maps a ConfigMap to the AppDeployments of its namespace that reference it.
func (r *appReconciler) referencing(ctx context.Context, cm client.Object) []reconcile.Request {
	var apps AppDeploymentList
	if err := r.List(ctx, &apps, client.InNamespace(cm.GetNamespace()),
		client.MatchingFields{configMapIndex: cm.GetName()}); err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "cannot list the AppDeployments referencing a ConfigMap",
			"ConfigMap", client.ObjectKeyFromObject(cm))
		return nil
	}
	requests := make([]reconcile.Request, 0, len(apps.Items))
	for _, app := range apps.Items {
		requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&app)})
	}
	return requests
}

// contentChanged passes a ConfigMap's creation and deletion, and an update only when its data or
// binaryData changed: a label edit rolls no pods.
type contentChanged struct {
	predicate.Funcs
}

func (contentChanged) Update(e event.UpdateEvent) bool {
	oldCM, okOld := e.ObjectOld.(*corev1.ConfigMap)
	newCM, okNew := e.ObjectNew.(*corev1.ConfigMap)
	if !okOld || !okNew {
		return true
	}
	return !equality.Semantic.DeepEqual(oldCM.Data, newCM.Data) ||
		!equality.Semantic.DeepEqual(oldCM.BinaryData, newCM.BinaryData)
}

func (r *appReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var app AppDeployment
	if err := r.Get(ctx, req.NamespacedName, &app); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !app.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil // the garbage collector removes the children
	}
	ready := int32(0)
	var cached appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &cached); err == nil {
		ready = cachedReadyReplicas(&cached)
	} else if !apierrors.IsNotFound(err) {
		return ctrl.Result{}, err
	}

	if _, err := reference.Parse(app.Spec.Image); err != nil {
		msg := fmt.Sprintf("spec.image: %q is not a valid image reference: %v;"+
			" fix spec.image, e.g. registry.example.com/team/app:1.2.3", app.Spec.Image, err)
		r.recorder.Eventf(&app, nil, corev1.EventTypeWarning, reasonInvalidImage, "Reconcile", msg)
		if err := r.updateStatus(ctx, &app, phaseFailed, ready,
			condition(conditionReady, metav1.ConditionFalse, reasonInvalidImage, msg)); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, reconcile.TerminalError(fmt.Errorf("AppDeployment %s/%s: %s", app.Namespace, app.Name, msg))
	}

	config := condition(conditionConfigResolved, metav1.ConditionTrue,
		"NoConfigMapReferenced", "spec.configMapName is not set")
	hash := ""
	if name := app.Spec.ConfigMapName; name != "" {
		var cm corev1.ConfigMap
		err := r.Get(ctx, types.NamespacedName{Namespace: app.Namespace, Name: name}, &cm)
		if apierrors.IsNotFound(err) {
			msg := fmt.Sprintf("ConfigMap %s/%s not found; create it or change spec.configMapName", app.Namespace, name)
			if err := r.applyService(ctx, &app); err != nil {
				return r.refused(ctx, &app, ready, err)
			}
			err := r.updateStatus(ctx, &app, phasePending, ready,
				condition(conditionReady, metav1.ConditionFalse, reasonConfigMapNotFound, msg),
				condition(conditionConfigResolved, metav1.ConditionFalse, reasonConfigMapNotFound, msg))
			return ctrl.Result{RequeueAfter: missingConfigRecheck}, err
		} else if err != nil {
			return ctrl.Result{}, err
		}
		hash = configHash(&cm)
		config = condition(conditionConfigResolved, metav1.ConditionTrue, "ConfigMapFound",
			fmt.Sprintf("ConfigMap %s (content hash %s)", name, hash))
	}

	deployment := desiredDeployment(&app, hash)
	if err := r.Apply(ctx, deployment, client.FieldOwner(r.fieldManager), client.ForceOwnership); err != nil {
		return r.refused(ctx, &app, ready, fmt.Errorf("apply Deployment %s/%s: %w", app.Namespace, app.Name, err))
	}
	if err := r.applyService(ctx, &app); err != nil {
		return r.refused(ctx, &app, ready, err)
	}
	if !observedLatest(deployment) {
		// The Deployment controller has not looked at the latest generation yet; its next status
		// write reconciles again, and a status written now would only be overwritten then.
		return ctrl.Result{}, nil
	}
	rolled := rolloutOf(deployment)
	phase, status, reason := phasePending, metav1.ConditionFalse, "RollingOut"
	if rolled.current {
		phase, status, reason = phaseRunning, metav1.ConditionTrue, "AllReplicasReady"
	}
	return ctrl.Result{}, r.updateStatus(ctx, &app, phase, readyReplicas(deployment),
		condition(conditionReady, status, reason, rolled.message), config)
}

// applyService creates the Service or updates the fields the operator owns, keeping the
// allocated clusterIP; it writes nothing when the live Service already matches.
func (r *appReconciler) applyService(ctx context.Context, app *AppDeployment) error {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: app.Name, Namespace: app.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, svc, func() error {
		return mutateService(app, svc, r.Scheme())
	}); err != nil {
		return fmt.Errorf("create or update Service %s/%s: %w", app.Namespace, app.Name, err)
	}
	return nil
}

// refused reports a write the API server refused as such (422) in the status, phase Failed and
// Ready=False, and does not retry it until the spec changes; any other error is retried.
func (r *appReconciler) refused(ctx context.Context, app *AppDeployment, ready int32, err error) (ctrl.Result, error) {
	if !apierrors.IsInvalid(err) {
		return ctrl.Result{}, err
	}
	r.recorder.Eventf(app, nil, corev1.EventTypeWarning, "Invalid", "Reconcile", err.Error())
	if serr := r.updateStatus(ctx, app, phaseFailed, ready,
		condition(conditionReady, metav1.ConditionFalse, "Invalid", err.Error())); serr != nil {
		return ctrl.Result{}, errors.Join(err, serr)
	}
	return ctrl.Result{}, reconcile.TerminalError(err)
}

func condition(kind string, status metav1.ConditionStatus, reason, message string) metav1.Condition {
	return metav1.Condition{Type: kind, Status: status, Reason: reason, Message: message}
}

// updateStatus sets the phase, the ready replicas and the wanted conditions (lastTransitionTime
// moves only when a condition's status flips) with the AppDeployment's generation, and writes the
// status only when it differs from the stored one. On a conflict it reads the AppDeployment again
// from the API server and computes the status anew.
func (r *appReconciler) updateStatus(ctx context.Context, app *AppDeployment, phase string, ready int32, wanted ...metav1.Condition) error {
	current := app
	for attempt := 0; ; attempt++ {
		next := current.DeepCopy()
		for _, c := range wanted {
			c.ObservedGeneration = current.Generation
			meta.SetStatusCondition(&next.Status.Conditions, c)
		}
		generation := current.Generation
		next.Status.Phase = phase
		next.Status.ReadyReplicas = &ready
		next.Status.ObservedGeneration = &generation
		if equality.Semantic.DeepEqual(current.Status, next.Status) {
			return nil
		}
		err := r.Status().Update(ctx, next)
		if err == nil || !apierrors.IsConflict(err) || attempt == 4 {
			if err != nil {
				return fmt.Errorf("update status of AppDeployment %s/%s: %w", app.Namespace, app.Name, err)
			}
			return nil
		}
		fresh := &AppDeployment{}
		if err := r.apiReader.Get(ctx, client.ObjectKeyFromObject(app), fresh); err != nil {
			return client.IgnoreNotFound(err)
		}
		current = fresh
	}
}
