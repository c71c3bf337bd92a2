"""The one WHERE-clause builder of the read queries: conditions joined with AND, their arguments in order."""
import json
from dataclasses import dataclass, field


@dataclass
class Where:
    """SQL conditions (each with its `?` placeholders) and their arguments, in the order the placeholders read."""

    conditions: list = field(default_factory=list)
    args: list = field(default_factory=list)

    def add(self, condition: str, *args) -> "Where":
        """One condition and the arguments of its placeholders."""
        self.conditions.append(condition)
        self.args += args
        return self

    def equal(self, column: str, value) -> "Where":
        """column = value, unless value is None (the filter was not asked for)."""
        return self if value is None else self.add(f"{column} = ?", value)

    def one_of(self, column: str, values) -> "Where":
        """column among values (as placeholders, so SQLite can use an index), unless there are none."""
        return self.add(f"{column} IN ({', '.join('?' * len(values))})", *values) if values else self

    def within(self, column: str, values) -> "Where":
        """column among values passed as one JSON array (any number of them), unless there are none."""
        return self.add(f"{column} IN (SELECT value FROM json_each(?))", json.dumps(sorted(values))) if values \
            else self

    def extend(self, other: "Where") -> "Where":
        """The other builder's conditions and arguments after these."""
        self.conditions += other.conditions
        self.args += other.args
        return self

    def __len__(self) -> int:
        return len(self.conditions)

    def sql(self) -> str:
        """' WHERE a AND b ...', or '' when there is no condition."""
        return " WHERE " + " AND ".join(self.conditions) if self.conditions else ""
