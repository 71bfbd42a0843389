"""Data behind every `{id}` for one contract-fuzzing caller (scripts/contract-fuzz.sh).

    seed.py buy BASE COOKIE PLAN        pays for PLAN with the test provider's card: an invoice
    seed.py resources BASE COOKIE EMAIL PASSWORD ADMIN_COOKIE
                                        creates the caller's resources through the API and prints
                                        schemathesis configuration binding each operation's `{id}`
                                        (and the unsubscribe token of an email the caller was sent,
                                        which the administrator reads in the outbox)
    seed.py webhooks BASE KEY FILE      replaces KEY's owner's webhook endpoints with two fresh
                                        ones and rebinds the public API's webhook operations in
                                        FILE to them (before each key run: a run's fuzzing
                                        deletes every endpoint it is shown, so the next would
                                        find none)

An operation that deletes gets a resource of its own, so that it cannot leave another with
nothing to read; half of the generated requests use the real id and half a generated one
(a dictionary at probability 0.5), so both the found and the not-found answers are fuzzed.
Resources the caller's plan refuses are left out: their operations answer the refusal, which the
run checks like any other answer.
"""

import datetime
import json
import re
import struct
import sys
import urllib.error
import urllib.parse
import urllib.request
import zlib


# Where the seeded webhooks point: nothing listens there, so a test send is refused at once (the
# fuzzing server lets webhooks reach 127.0.0.1 over plain http; scripts/contract-fuzz.sh).
WEBHOOK_URL = "http://127.0.0.1:9/strikeline"
# A browser's P-256 key (RFC 8291's example) for the seeded push subscriptions.
PUSH_KEY = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
# An expiry two months ahead: after today, within the three years a signal of one's own may run.
AHEAD = (datetime.date.today() + datetime.timedelta(days=60)).isoformat()


class Api:
    def __init__(self, base, cookie, bearer=None):
        self.base = base
        self.cookie = cookie
        self.bearer = bearer

    def call(self, method, path, body=None, cookie=None):
        """`cookie` stands in for the caller's own session; "" sends none."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Origin", self.base)
        cookie = self.cookie if cookie is None else cookie
        if cookie:
            request.add_header("Cookie", cookie)
        if self.bearer:
            request.add_header("Authorization", f"Bearer {self.bearer}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                text = response.read().decode()
                return response.status, (json.loads(text) if text else None), response.headers
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            try:
                return error.code, json.loads(text), error.headers
            except ValueError:
                return error.code, text, error.headers

    def created(self, method, path, body, key):
        """The id of what a write created, or None when the caller may not create it."""
        status, answer, _ = self.call(method, path, body)
        if status in (200, 201) and isinstance(answer, dict):
            for part in key.split("."):
                answer = answer.get(part) if isinstance(answer, dict) else None
            return answer
        print(f"seed: {method} {path} answered {status}: {answer}", file=sys.stderr)
        return None


def tiny_png():
    """An 8×8 opaque blue PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x1d\x4e\xd8" * 8 for _ in range(8))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def buy(base, cookie, plan):
    api = Api(base, cookie)
    status, checkout, _ = api.call("POST", "/api/create-subscription", {"plan": plan, "billing": "monthly"})
    if status != 200:
        sys.exit(f"seed: checkout answered {status}: {checkout}")
    card = {"clientSecret": checkout["clientSecret"], "cardNumber": "4242 4242 4242 4242", "expMonth": 12, "expYear": 2049, "cvc": "123"}
    status, paid, _ = api.call("POST", "/api/billing/test-provider/pay", card)
    if status != 200:
        sys.exit(f"seed: payment answered {status}: {paid}")


def first_id(api, path, field=None):
    status, answer, _ = api.call("GET", path)
    if status != 200:
        return None
    items = answer.get(field, []) if field else answer
    return items[0]["id"] if items else None


def another_session(api, email, password):
    """A second session of the caller's own (a sign-in elsewhere), for revoking one that is not the run's."""
    status, answer, _ = api.call("POST", "/api/auth/login", {"email": email, "password": password}, cookie="")
    if status != 200:
        print(f"seed: a second sign-in answered {status}: {answer}", file=sys.stderr)
        return None
    status, sessions, _ = api.call("GET", "/api/user/sessions")
    others = [s["id"] for s in sessions if not s["current"]] if status == 200 else []
    return others[0] if others else None


def watchlist_symbol(api):
    status, stocks, _ = api.call("GET", "/api/stock-prices")
    return stocks[0]["symbol"] if status == 200 and stocks else None


def unsubscribe_token(api, admin_cookie, email):
    """The token of an unsubscribe link mailed to `email`, read from the outbox by an administrator."""
    status, mails, _ = api.call("GET", "/api/admin/emails", cookie=admin_cookie)
    if status != 200:
        return None
    for mail in mails:
        link = mail.get("unsubscribeUrl")
        if mail["to"] == email and link:
            return urllib.parse.parse_qs(urllib.parse.urlsplit(link).query).get("token", [None])[0]
    return None


def resources(base, cookie, email, password, admin_cookie):
    api = Api(base, cookie)
    symbol = watchlist_symbol(api)
    position = {
        "symbol": symbol,
        "companyName": "Seeded position",
        "type": "CALL",
        "strikePrice": 200,
        "expirationDate": AHEAD,
        "quantity": 1,
        "entryPrice": 5.25,
    }
    alert = {"symbol": symbol, "direction": "above", "targetPrice": 9999}
    # A price alert already met fires at the next update, which brings a notification; the
    # update also opens the automated positions the caller's preferences take.
    api.created("POST", "/api/price-alerts", {"symbol": symbol, "direction": "above", "targetPrice": 1}, "id")
    api.call("POST", "/api/automation/update")

    def webhook():
        return api.created("POST", "/api/webhooks", {"eventType": "new_signal", "url": WEBHOOK_URL}, "webhookId")

    def key():
        return api.created("POST", "/api/api-keys", {"name": "fuzz seed"}, "apiKey.id")

    def push_subscription():
        """A browser's push subscription (Pro and up; None otherwise): RFC 8291's example keys,
        an endpoint of the caller's own (endpoints are unique), where nothing listens."""
        keys = {"p256dh": PUSH_KEY, "auth": "BTBZMqHH6r4Tts7J_aSIgg"}
        endpoint = f"http://127.0.0.1:9/push/{urllib.parse.quote(email)}"
        return api.created("POST", "/api/push/subscriptions", {"endpoint": endpoint, "keys": keys}, "id")

    def sms_phone():
        """A number awaiting its code (Pro and up), so the SMS preferences have a phone to act on."""
        api.call("PUT", "/api/sms/phone", {"phone": "+12025550143"})

    def report_brand():
        """A saved brand with a logo (Premium; refused otherwise), so the logo's reads have one."""
        status, _, _ = api.call("PUT", "/api/reports/brand", {
            "name": "Fuzz Capital", "primaryColor": "#1d4ed8", "accentColor": "#0f766e",
            "footer": "Seeded for fuzzing.", "monthlyEmail": False})
        if status != 200:
            return
        request = urllib.request.Request(base + "/api/reports/brand/logo", data=tiny_png(), method="PUT")
        for name, value in (("Origin", base), ("Cookie", cookie), ("Content-Type", "image/png")):
            request.add_header(name, value)
        with urllib.request.urlopen(request, timeout=60):
            pass

    def held_structure():
        """A multi-leg position saved from the builder's own legs (Premium; None otherwise)."""
        status, built, _ = api.call("POST", "/api/structures/template", {"symbol": symbol, "template": "bull-call-spread"})
        if status != 200:
            return None
        return api.created("POST", "/api/portfolio/structures", {"symbol": symbol, "legs": built["legs"]}, "id")

    def custom_strategy(name, live=False):
        """A saved custom strategy (Premium; None otherwise): RSI(14) below 30 opens a call. A live
        one fires on every close and is switched on and automated, so the runs' updates issue its
        signals and open positions from them, and the lists show both."""
        indicator = "close" if live else "rsi14"
        rule = {"compare": {"left": {"indicator": {"name": indicator}}, "is": "below" if not live else "above",
                            "right": {"number": 0.01 if live else 30}}}
        document = {"version": 1, "entry": {"all": [rule]}, "opens": "CALL", "strike": {"offset": 0},
                    "minDays": 30, "exits": {"targetGain": 0.5, "stopLoss": 0.3}}
        created = api.created("POST", "/api/strategies/custom", {"name": name, "document": document}, "id")
        if created and live:
            api.call("PUT", f"/api/strategies/custom/{created}/active", {"active": True, "automate": True})
        return created

    def held_account():
        """A second trading account holding an open position (Premium; None otherwise), so a
        fuzzed delete reaches the rules each time (409: it holds open positions) instead of
        deleting it once and finding nothing after. The caller's first account stays current."""
        main = first_id(api, "/api/accounts", "accounts")
        created = api.created("POST", "/api/accounts", {"name": "Fuzz held"}, "id")
        if created:
            api.call("PUT", "/api/accounts/current", {"id": created})
            api.created("POST", "/api/manual-positions", position, "id")
            api.call("PUT", "/api/accounts/current", {"id": main})
        return created

    sms_phone()
    report_brand()
    ids = {
        "delete_key": key(),
        "toggle_key": key(),
        "download_invoice": first_id(api, "/api/billing/invoices"),
        "detail": api.created("POST", "/api/manual-positions", position, "id"),
        "delete": api.created("POST", "/api/manual-positions", position, "id"),
        "delete_alert": api.created("POST", "/api/price-alerts", alert, "id"),
        "get_held_structure": held_structure(),
        "delete_held_structure": held_structure(),
        "get_custom_strategy": custom_strategy("Kept", live=True),
        "delete_custom_strategy": custom_strategy("Deleted"),
        "delete_push_subscription": push_subscription(),
        "mark_notification_read": first_id(api, "/api/notifications", "notifications"),
        "position_detail": first_id(api, "/api/portfolio/positions"),
        "analysis": first_id(api, "/api/signals", "signals"),
        "revoke_session": another_session(api, email, password),
        # The caller's first trading account, and another to delete (Premium holds more than one).
        "update_trading_account": first_id(api, "/api/accounts", "accounts"),
        "delete_trading_account": held_account(),
        # An order the update above sent for the caller's automated account, if it sent one:
        # cancelling it answers 200 once (while it stands) and 409 after, never 404.
        "cancel_order": first_id(api, "/api/orders"),
    }
    # Two endpoints (a plan allows few): one to delete, one that the reads, tests and enabling
    # share; the public API's operations get the same two.
    kept, deleted = webhook(), webhook()
    ids |= {"delete_webhook": deleted, "v1_delete_webhook": deleted}
    ids |= {operation: kept for operation in ("webhook_deliveries", "enable_webhook", "test_webhook", "v1_test_webhook")}
    ids["proof"] = ids["analysis"]
    ids["update_custom_strategy"] = ids["get_custom_strategy"]
    # The caller's first account: to connect to a broker (409 here: the fuzzed server has no
    # credentials key) and disconnect.
    ids["connect_broker"] = ids["disconnect_broker"] = ids["update_trading_account"]
    bindings = [(operation, "path.id", value) for operation, value in ids.items()]
    # The caller's first account: to switch to, and to scope keys and webhooks to.
    bindings += [(operation, "body.id" if operation == "switch_trading_account" else "body.accountId", ids["update_trading_account"])
                 for operation in ("switch_trading_account", "create_key", "create_webhook", "v1_create_webhook")]
    # The alert's email carries an unsubscribe link: its token, for the page and the request.
    token = unsubscribe_token(api, admin_cookie, email)
    bindings += [(operation, "query.token", token) for operation in ("unsubscribe_page", "unsubscribe")]
    bindings += state_bindings(api, symbol)
    write_configuration(bindings)


def state_bindings(api, symbol):
    """Values valid only in the server's present state, which no schema can list: a symbol on the
    watchlist, an address a webhook can be sent to, an expiry still ahead, the signed log's sizes."""
    bindings = [
        (operation, "body.symbol", symbol)
        for operation in ("create_alert", "create", "generate", "v1_generate_signals", "v1_create_signal", "create_held_structure")
    ]
    bindings.append(("history", "path.symbol", symbol))
    # The chain of a tracked symbol, at one of its listed expirations (the list is the market's).
    status, chain, _ = api.call("GET", f"/api/stock-prices/{symbol}/options")
    if status == 200:
        bindings.append(("option_chain", "path.symbol", symbol))
        bindings += [("option_chain", "query.expiration", expiration) for expiration in chain.get("expirations", [])[1:2]]
    bindings += [(operation, "body.url", WEBHOOK_URL) for operation in ("create_webhook", "v1_create_webhook")]
    bindings += [(operation, "body.expirationDate", AHEAD) for operation in ("create", "v1_create_signal")]
    status, heads, _ = api.call("GET", "/api/public/track-record/heads")
    sizes = sorted({head["treeSize"] for head in heads["heads"]}) if status == 200 else []
    if sizes:
        bindings += [("proof", "query.treeSize", sizes[-1]), ("consistency", "query.first", sizes[0]), ("consistency", "query.second", sizes[-1])]
    return bindings


def webhooks(base, key, path):
    api = Api(base, "", bearer=key)
    status, listed, _ = api.call("GET", "/api/v1/webhooks")
    for endpoint in listed if status == 200 else []:
        api.call("DELETE", f"/api/v1/webhooks/{endpoint['id']}")
    fresh = {}
    for operation in ("v1_delete_webhook", "v1_test_webhook"):
        fresh[f"seeded_{operation}_path_id"] = api.created("POST", "/api/v1/webhooks", {"eventType": "new_signal", "url": WEBHOOK_URL}, "webhookId")
    with open(path) as file:
        text = file.read()
    for name, value in fresh.items():
        if value is not None:
            text = re.sub(rf"(\[dictionaries\.{name}\]\nvalues = )\[[^\]]*\]", lambda m: f"{m.group(1)}[{json.dumps(value)}]", text)
    with open(path, "w") as file:
        file.write(text)


def write_configuration(bindings):
    """One `[[operations]]` entry per operation, each parameter bound to a dictionary of its one
    real value at probability 0.5."""
    by_operation = {}
    for operation, parameter, value in bindings:
        if value is None:
            print(f"seed: nothing for {operation}'s {parameter} (the caller's plan refuses it, or the server has none)", file=sys.stderr)
            continue
        name = f"seeded_{operation}_{parameter.replace('.', '_')}"
        print(f"[dictionaries.{name}]\nvalues = [{json.dumps(value)}]\n")
        by_operation.setdefault(operation, []).append(f'"{parameter}" = {{ dictionary = "{name}", probability = 0.5 }}')
    for operation, parameters in by_operation.items():
        print(f'[[operations]]\ninclude-operation-id = "{operation}"\nparameters = {{ {", ".join(parameters)} }}\n')


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "buy":
        buy(*args)
    elif command == "resources":
        resources(*args)
    elif command == "webhooks":
        webhooks(*args)
    else:
        sys.exit(__doc__)
