"""The operator's side: queue status and backups, workers, incidents, retention, logs, the
digest."""
