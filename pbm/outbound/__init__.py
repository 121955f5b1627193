"""Mail out: rendering, the one way into the outbox, the sender's loop and delivery reports."""
