// Command app-operator-go is the example AppDeployment operator written with Go's
// controller-runtime, to run beside Converge's in the benchmark (bin/bench --peer go): the same
// CRD, children, status, watches and workers, in the way a controller-runtime user writes them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2/textlogger"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// operatorName is the field manager of the applies, the first word of the user agent (under which
// the API server records the Service's updates) and the Events' reporter, as the example's
// "app-operator" is its own.
const operatorName = "app-operator-go"

func main() {
	workers := flag.Int("workers", 16, "AppDeployments reconciled at once")
	probeAddr := flag.String("health-probe-bind-address", ":8081", "address of /readyz and /healthz")
	metricsAddr := flag.String("metrics-bind-address", ":8080", "address of /metrics (0 for none)")
	verbosity := flag.Int("v", 0, "log verbosity")
	flag.Parse() // --kubeconfig is controller-runtime's own flag
	ctrl.SetLogger(textlogger.NewLogger(textlogger.NewConfig(textlogger.Verbosity(*verbosity))))
	if err := run(*workers, *probeAddr, *metricsAddr); err != nil {
		fmt.Fprintln(os.Stderr, operatorName+":", err)
		os.Exit(1)
	}
}

func run(workers int, probeAddr, metricsAddr string) error {
	if workers < 1 {
		return fmt.Errorf("--workers must be at least 1, not %d", workers)
	}
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(addToScheme(scheme))

	cfg, err := ctrl.GetConfig()
	if err != nil {
		return fmt.Errorf("no API server to talk to: %w", err)
	}
	cfg.UserAgent = operatorName + "/dev"

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		LeaderElection:         false,
		HealthProbeBindAddress: probeAddr,
		Metrics:                metricsserver.Options{BindAddress: metricsAddr},
		// managedFields are of no use to a reconciler that applies its own fields; the example's
		// caches drop them too.
		Cache: cache.Options{DefaultTransform: cache.TransformStripManagedFields()},
	})
	if err != nil {
		return fmt.Errorf("cannot create the manager: %w", err)
	}
	ctx := ctrl.SetupSignalHandler()
	r := &appReconciler{
		Client:       mgr.GetClient(),
		apiReader:    mgr.GetAPIReader(),
		recorder:     mgr.GetEventRecorder(operatorName),
		fieldManager: operatorName,
	}
	if err := r.setupWithManager(ctx, mgr, workers); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("caches", cachesSynced(mgr.GetCache())); err != nil {
		return err
	}
	ctrl.Log.Info("starting", "workers", workers, "probes", probeAddr, "metrics", metricsAddr)
	return mgr.Start(ctx)
}

// cachesSynced answers ready once the informer of every kind the controller reads has synced,
// the example's meaning of ready.
func cachesSynced(c cache.Cache) healthz.Checker {
	kinds := []client.Object{&AppDeployment{}, &appsv1.Deployment{}, &corev1.Service{}, &corev1.ConfigMap{}}
	return func(req *http.Request) error {
		for _, kind := range kinds {
			informer, err := c.GetInformer(req.Context(), kind, cache.BlockUntilSynced(false))
			if err != nil {
				return fmt.Errorf("no informer for %T: %w", kind, err)
			}
			if !informer.HasSynced() {
				return errors.New("caches not synced yet")
			}
		}
		return nil
	}
}
