# The two commands of the README: `make demo` runs the indexer's main job on the
# embedded default, `make test` runs the test suite. Both set everything up.
.PHONY: setup demo test schema down clean

VENV := .venv/bin

setup:
	@bash scripts/setup.sh

demo: setup
	$(VENV)/voyager demo

test: setup
	$(VENV)/python -m pytest $(PYTEST_ARGS)

# Regenerate the committed schema dump after a schema change.
schema: setup
	$(VENV)/python -m tests.schema_dump > sql/schema.sql

down:
	-$(VENV)/voyager db down

clean: down
	rm -rf var
