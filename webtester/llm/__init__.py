"""Model access: the model factory, scripted models, record / replay and a local stub endpoint."""
