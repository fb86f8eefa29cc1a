"""Python `logging` sink of the recorder's client-log fan-out (samples/record/lib/styles.ts).

Reads one JSON record per stdin line ({"time": epoch ms, "level", "logger", "msg", "exc"?}) and emits it
through the standard `logging` module with a plain Formatter into the file given as argv[1], the way a
Python host app would log. The record's own time becomes the LogRecord's `created`, so every style of one
incident carries the same instants; a JavaScript error arrives as its text and is printed where Python
prints an exception (after the message line). After each record the file offset is written to stdout,
so the recorder can cut this file at the same record as the other styles.
"""
import json
import logging
import sys

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warn": logging.WARNING, "error": logging.ERROR}


class RecordTime(logging.Filter):
    """Use the recorder's timestamp and attach the JS error text as the exception text."""

    def filter(self, record):
        ts = getattr(record, "ts", None)
        if ts is not None:
            record.created = ts / 1000.0
            record.msecs = float(int(ts) % 1000)
        exc = getattr(record, "js_exc", None)
        if exc:
            record.exc_text = exc
        return True


def main():
    handler = logging.FileHandler(sys.argv[1], encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s - %(name)s - %(levelname)s - %(message)s"))
    handler.addFilter(RecordTime())
    root = logging.getLogger("orders_assistant")
    root.setLevel(logging.DEBUG)
    root.addHandler(handler)
    root.propagate = False
    for line in sys.stdin:
        if not line.strip():
            continue
        rec = json.loads(line)
        name = "orders_assistant." + rec["logger"].replace("-", "_")
        msg = rec["msg"]
        if rec.get("conv"):
            msg = "[%s] %s" % (rec["conv"], msg)
        logging.getLogger(name).log(LEVELS[rec["level"]], "%s", msg, extra={"ts": rec["time"], "js_exc": rec.get("exc")})
        handler.flush()
        sys.stdout.write("%d\n" % handler.stream.tell())
        sys.stdout.flush()
    handler.close()


if __name__ == "__main__":
    main()
