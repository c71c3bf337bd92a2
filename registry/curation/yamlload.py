"""YAML loading that remembers the line of every mapping and key, for file:line messages."""
import yaml


class LineDict(dict):
    """A mapping from YAML that knows its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict

    def line_of(self, key) -> int:
        """Return the line where key was written, else the mapping's own line."""
        return self.key_lines.get(key, self.line)


class LineList(list):
    """A sequence from YAML that knows its line and each item's line (1-based)."""

    line: int = 0
    item_lines: list


# Deeper than any curation needs (a model is three levels down), and far below Python's recursion
# limit, so a pathological file is a file:line error instead of a RecursionError (issue 15).
MAX_DEPTH = 64


class _LineLoader(yaml.SafeLoader):
    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        # The composer recurses once per nesting level: refuse at MAX_DEPTH, with the mark of the
        # node that goes too deep.
        if self._depth >= MAX_DEPTH:
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark)
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _construct_mapping(loader, node):
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise yaml.constructor.ConstructorError(
                None, None, "mapping keys must be plain scalars", key_node.start_mark)
        if key in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader, node):
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


def _construct_timestamp_as_text(loader, node):
    # Dates stay strings: validation checks them, and "2025-04" must not become a day.
    return loader.construct_scalar(node)


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp_as_text)


def load_yaml(text: str):
    """Parse YAML text into LineDict/LineList values (raises yaml.YAMLError with a mark)."""
    return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
