// Package mlflow records runs in MLflow: experiments, runs, parameters, metrics with their
// steps and timestamps, and tags. It writes either a local tracking folder in MLflow's file
// store layout (mlruns/<experiment>/<run>/{meta.yaml,params,metrics,tags,artifacts}), which
// mlflow's client, `mlflow ui` and `mlflow migrate-filestore` read, or talks to a tracking
// server through its REST API (/api/2.0/mlflow/...). Open picks one from a tracking URI as
// mlflow does from MLFLOW_TRACKING_URI: http(s)://… is a server, file:… or a plain path a
// folder.
//
// MLflow 3 keeps the file store in maintenance mode: its client reads such a folder once
// MLFLOW_ALLOW_FILE_STORE=true is set, given the folder's file: URI.
//
// Files:
//   - store.go: Store, Run, Metric, Open and the validation of names both stores share.
//   - file.go: the file store.
//   - rest.go: the REST client.
package mlflow
