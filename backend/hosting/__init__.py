"""What makes one instance safe to share: request rate limits, job quotas, and a body-size guard."""
