module example.com/bookstore-operator

go 1.22

require (
	k8s.io/api v0.31.1
	k8s.io/apimachinery v0.31.1
	k8s.io/client-go v0.31.1
	sigs.k8s.io/controller-runtime v0.19.0
)
