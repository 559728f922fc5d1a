"""The methods of Method Playground: plain Python/numpy/torch libraries, one package per method."""
