"""Models: pydantic models of content files, and the runtime card types."""
