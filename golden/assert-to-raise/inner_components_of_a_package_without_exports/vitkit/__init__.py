"""No class is bound here: users import the models from their modules."""
