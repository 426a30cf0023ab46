"""Errors raised on bad input anywhere: each message says what is wrong."""


class MunchkinError(Exception):
    """Base class of every error the package raises on bad input."""


class ParseError(MunchkinError):
    """The text is not an action of the notation (see docs/notation.md)."""


class IllegalAction(MunchkinError):
    """A well-formed action that the rules do not allow now; the message says why."""


class CardError(MunchkinError):
    """A set file is malformed: the message names the file and the card."""
