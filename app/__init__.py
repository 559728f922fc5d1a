"""Method Playground front end (Streamlit). Speaks to the model server only through app.client."""
