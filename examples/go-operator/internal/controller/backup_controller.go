// Package controller holds the reconcilers of the bookstore operator.
package controller

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

const (
	// backupOfLabel is set on backup Jobs and names the Bookstore they back up.
	backupOfLabel = "example.com/backup-of"
	// backupJobAnnotation is set on credentials Secrets and names the backup Job using them.
	backupJobAnnotation = "example.com/backup-job"
	// jobNameLabel is set by the Job controller on the pods of a Job.
	jobNameLabel = "batch.kubernetes.io/job-name"
)

// BackupReconciler writes a report ConfigMap for every backup Job of a Bookstore.
type BackupReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=pods;secrets,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;patch

// Reconcile records the state of one backup Job in its report ConfigMap.
func (r *BackupReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	logger := log.FromContext(ctx)

	// Only the Job's metadata is needed, and only metadata is cached.
	job := &metav1.PartialObjectMetadata{}
	job.SetGroupVersionKind(batchv1.SchemeGroupVersion.WithKind("Job"))
	if err := r.Get(ctx, req.NamespacedName, job); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	store, ok := job.GetLabels()[backupOfLabel]
	if !ok {
		return ctrl.Result{}, nil
	}

	report := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: job.Name + "-report", Namespace: job.Namespace},
		Data: map[string]string{
			"bookstore": store,
			"job":       job.Name,
			"phase":     job.GetAnnotations()["example.com/backup-phase"],
		},
	}
	if err := ctrl.SetControllerReference(job, report, r.Scheme); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Patch(ctx, report, client.Apply, client.FieldOwner("bookstore-backup"), client.ForceOwnership); err != nil {
		return ctrl.Result{}, err
	}
	logger.V(1).Info("backup report updated", "bookstore", store, "report", report.Name)
	return ctrl.Result{}, nil
}

// podToBackup maps a pod of a backup Job to that Job.
func (r *BackupReconciler) podToBackup(_ context.Context, obj client.Object) []reconcile.Request {
	jobName, ok := obj.GetLabels()[jobNameLabel]
	if !ok {
		return nil
	}
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: obj.GetNamespace(), Name: jobName}}}
}

// secretToBackup maps a backup credentials Secret to the Job that uses it. Like every
// Secret the operator sees, credentials Secrets carry the managed-by label (see main.go).
func (r *BackupReconciler) secretToBackup(_ context.Context, obj client.Object) []reconcile.Request {
	jobName, ok := obj.GetAnnotations()[backupJobAnnotation]
	if !ok {
		return nil
	}
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: obj.GetNamespace(), Name: jobName}}}
}

// SetupWithManager registers the controller with the manager.
func (r *BackupReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("backup").
		For(&batchv1.Job{}, builder.OnlyMetadata).
		Watches(
			&corev1.Pod{},
			handler.EnqueueRequestsFromMapFunc(r.podToBackup),
			builder.WithPredicates(predicate.NewPredicateFuncs(func(o client.Object) bool {
				return o.GetLabels()["app"] == "bookstore"
			})),
		).
		Watches(
			&corev1.Secret{},
			handler.EnqueueRequestsFromMapFunc(r.secretToBackup),
			builder.WithPredicates(predicate.ResourceVersionChangedPredicate{}),
		).
		Owns(&corev1.ConfigMap{}, builder.OnlyMetadata).
		Complete(r)
}
