"""The Kapsule domain layer: product facts and the questions rules ask about Kapsule."""
