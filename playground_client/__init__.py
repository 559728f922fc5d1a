"""Method Playground's Python client: run the site's methods, sweeps and downloads from your own code.

    from playground_client import Client
    client = Client("http://127.0.0.1:8000")            # a shared instance: Client(url, token=...) or .session()
    run = client.run("bilateral_trade", {"horizon": 2000, "seeds": 3})
    print(run.status, run.verdict["label"])
    for claim in run.claims:
        print(claim["id"], claim["holds"], claim["ours"]["text"])
    run.download("out/")                                 # every artifact and export.zip
"""

from playground_client.client import DEFAULT_URL, Client, ProgressCallback, Run, Sweep
from playground_client.errors import (
    InvalidRequest,
    NotFound,
    PlaygroundError,
    RateLimited,
    ServerUnavailable,
    Unauthorized,
)

__all__ = ["DEFAULT_URL", "Client", "InvalidRequest", "NotFound", "PlaygroundError", "ProgressCallback", "RateLimited",
           "Run", "ServerUnavailable", "Sweep", "Unauthorized"]
