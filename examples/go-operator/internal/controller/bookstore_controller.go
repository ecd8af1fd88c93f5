package controller

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	bookstorev1alpha1 "example.com/bookstore-operator/api/v1alpha1"
)

// managedByLabel marks the objects this operator creates; main.go restricts
// the Secret cache to objects carrying it.
const managedByLabel = "app.kubernetes.io/managed-by"

// BookstoreReconciler runs a Deployment for every Bookstore.
type BookstoreReconciler struct {
	client.Client
	Scheme *runtime.Scheme
	// APIReader reads from the API server directly, bypassing the cache.
	APIReader client.Reader
}

// +kubebuilder:rbac:groups=example.com,resources=bookstores,verbs=get;list;watch
// +kubebuilder:rbac:groups=example.com,resources=bookstores/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch
// +kubebuilder:rbac:groups="",resources=configmaps;secrets,verbs=get;list;watch;create
// +kubebuilder:rbac:groups="",resources=pods;endpoints;events,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=serviceaccounts,verbs=get

// Reconcile brings the Deployment of a Bookstore in line with its spec and reports its state.
func (r *BookstoreReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	logger := log.FromContext(ctx)

	var store bookstorev1alpha1.Bookstore
	if err := r.Get(ctx, req.NamespacedName, &store); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}

	var cm corev1.ConfigMap
	key := types.NamespacedName{Namespace: store.Namespace, Name: store.Spec.CatalogConfigMap}
	if err := r.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, fmt.Errorf("reading catalog %s: %w", key, err)
	}

	var sa corev1.ServiceAccount
	saKey := types.NamespacedName{Namespace: store.Namespace, Name: store.Spec.ServiceAccountName}
	if err := r.Get(ctx, saKey, &sa); apierrors.IsNotFound(err) {
		logger.Info("waiting for service account", "serviceAccount", saKey.Name)
		return ctrl.Result{RequeueAfter: 30 * time.Second}, nil
	} else if err != nil {
		return ctrl.Result{}, err
	}

	if err := r.ensureObjects(ctx, &store, &cm); err != nil {
		return ctrl.Result{}, err
	}

	var pods corev1.PodList
	if err := r.List(ctx, &pods, client.InNamespace(store.Namespace), client.MatchingLabels{"app": "bookstore", "bookstore": store.Name}); err != nil {
		return ctrl.Result{}, err
	}
	store.Status.ReadyReplicas = 0
	for _, pod := range pods.Items {
		for _, c := range pod.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
				store.Status.ReadyReplicas++
			}
		}
	}

	var events corev1.EventList
	if err := r.APIReader.List(ctx, &events); err != nil {
		return ctrl.Result{}, err
	}
	store.Status.WarningEvents = 0
	for _, ev := range events.Items {
		if ev.InvolvedObject.UID == store.UID && ev.Type == corev1.EventTypeWarning {
			store.Status.WarningEvents++
		}
	}

	var endpoints corev1.EndpointsList
	if err := r.APIReader.List(ctx, &endpoints, client.InNamespace(store.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	store.Status.ServingAddresses = 0
	for _, ep := range endpoints.Items {
		if ep.Name != store.Name { // the bookstore Service is named after its Bookstore
			continue
		}
		for _, subset := range ep.Subsets {
			store.Status.ServingAddresses += int32(len(subset.Addresses))
		}
	}
	return ctrl.Result{}, r.Status().Update(ctx, &store)
}

// ensureObjects creates or updates the Deployment, settings ConfigMap and admin Secret of a Bookstore.
func (r *BookstoreReconciler) ensureObjects(ctx context.Context, store *bookstorev1alpha1.Bookstore, catalog *corev1.ConfigMap) error {
	podLabels := map[string]string{"app": "bookstore", "bookstore": store.Name}
	deploy := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: store.Name, Namespace: store.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, deploy, func() error {
		deploy.Spec.Replicas = store.Spec.Replicas
		deploy.Spec.Selector = &metav1.LabelSelector{MatchLabels: podLabels}
		deploy.Spec.Template.Labels = podLabels
		deploy.Spec.Template.Annotations = map[string]string{"example.com/catalog-version": catalog.ResourceVersion}
		deploy.Spec.Template.Spec.ServiceAccountName = store.Spec.ServiceAccountName
		deploy.Spec.Template.Spec.Containers = []corev1.Container{{Name: "bookstore", Image: store.Spec.Image}}
		return ctrl.SetControllerReference(store, deploy, r.Scheme)
	}); err != nil {
		return fmt.Errorf("reconciling deployment: %w", err)
	}

	managed := map[string]string{managedByLabel: "bookstore-operator"}
	for _, obj := range []client.Object{
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: store.Name + "-settings", Namespace: store.Namespace, Labels: managed},
			Data: map[string]string{"currency": "EUR"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: store.Name + "-admin", Namespace: store.Namespace, Labels: managed},
			StringData: map[string]string{"username": "admin"}},
	} {
		if err := ctrl.SetControllerReference(store, obj, r.Scheme); err != nil {
			return err
		}
		if err := r.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating %s: %w", obj.GetName(), err)
		}
	}
	return nil
}

// SetupWithManager registers the controller with the manager.
func (r *BookstoreReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&bookstorev1alpha1.Bookstore{}).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.ConfigMap{}).
		Owns(&corev1.Secret{}).
		Complete(r)
}
