package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BookstoreSpec is the desired state of a Bookstore.
type BookstoreSpec struct {
	// Image is the container image of the bookstore web application.
	// +kubebuilder:validation:MinLength=1
	Image string `json:"image"`

	// Replicas is the number of bookstore pods.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:default=1
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// CatalogConfigMap names the ConfigMap, in the Bookstore's namespace,
	// that holds the book catalog.
	CatalogConfigMap string `json:"catalogConfigMap"`

	// ServiceAccountName is the service account the bookstore pods run as.
	// +kubebuilder:default=default
	// +optional
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
}

// BookstoreStatus is the observed state of a Bookstore.
type BookstoreStatus struct {
	// ReadyReplicas is the number of ready bookstore pods.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`

	// ServingAddresses is the number of addresses behind the bookstore Service.
	ServingAddresses int32 `json:"servingAddresses,omitempty"`

	// WarningEvents is the number of Warning events about this Bookstore.
	WarningEvents int32 `json:"warningEvents,omitempty"`

	// Conditions describe the state of the Bookstore.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Bookstore is a web shop for books, run as a Deployment.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Ready",type=integer,JSONPath=`.status.readyReplicas`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Bookstore struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BookstoreSpec   `json:"spec,omitempty"`
	Status BookstoreStatus `json:"status,omitempty"`
}

// BookstoreList is a list of Bookstores.
// +kubebuilder:object:root=true
type BookstoreList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Bookstore `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Bookstore{}, &BookstoreList{})
}
