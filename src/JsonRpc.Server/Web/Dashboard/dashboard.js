// The JSON-RPC router's dashboard: one WebSocket to the router's own endpoint, JSON-RPC 2.0 over it.
// Every second one batch asks for the counters, the methods and the clients; the form calls any method.
// Where the router asks who is calling (-32016 Not authenticated), a form takes a token and the page signs in with the
// `authenticate` method (a browser cannot set Authorization on a WebSocket); it then shows what that identity may see.
// The token is kept in this closure only: never in storage, the URL, the page or the console.
(function () {
  "use strict";

  const HISTORY = 60;
  const CALL_TIMEOUT_MS = 30000;
  const NOT_AUTHENTICATED = -32016;
  const ACCESS_DENIED = -32005;
  const rpcPath = document.querySelector('meta[name="jsonrpc-endpoint"]').content || "/rpc";
  const url = new URL(rpcPath, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";

  const $ = (id) => document.getElementById(id);
  const pending = new Map();
  const history = { calls: [], errors: [] };
  let socket = null;
  let nextId = 1;
  let previous = null;
  let timer = null;
  // Authentication: the token in memory only, the identity it signed in as on the current connection, and whether the
  // router refused the lists for want of one (then only the router-wide counters are polled, not refused every second).
  let token = null;
  let identity = null;
  let needLogin = false;
  let securityOn = false;
  let reconnectDelay = 2000;
  let descriptions = new Map(); // method name -> its OpenRPC Method Object (rpc.discover)
  let polls = 0;
  let knownMethods = null;
  let methodsChanged = false;
  let fieldsFor = null;

  $("endpoint").textContent = url.href;

  function setStatus(state, text) {
    const status = $("status");
    status.className = "status " + state;
    status.dataset.state = state;
    status.textContent = text;
  }

  function connect() {
    setStatus("connecting", "connecting…");
    const current = new WebSocket(url.href);
    socket = current;
    current.onopen = async () => {
      setStatus("open", "connected");
      identity = null;
      // After a reconnect, sign in again before asking for anything.
      if (token !== null) await signIn(token, true);
      if (socket !== current || current.readyState !== WebSocket.OPEN) return;
      poll();
      // A second sample soon after the first, so that the rates show at once rather than after a full second.
      setTimeout(() => { if (socket === current) poll(); }, 250);
      timer = setInterval(poll, 1000);
    };
    current.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      for (const item of Array.isArray(message) ? message : [message]) {
        const waiter = item && item.id !== undefined ? pending.get(item.id) : undefined;
        if (waiter) {
          pending.delete(item.id);
          clearTimeout(waiter.timeout);
          waiter.resolve(item);
        }
      }
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      clearInterval(timer);
      for (const waiter of pending.values()) {
        clearTimeout(waiter.timeout);
        waiter.resolve({ error: { code: -32000, message: "Connection closed", data: event.reason || String(event.code) } });
      }
      pending.clear();
      identity = null;
      showIdentity();
      setStatus("closed", "disconnected (" + event.code + ") – retrying");
      setTimeout(connect, reconnectDelay);
      reconnectDelay = 2000;
    };
  }

  // Sends one request (or a batch of them) and resolves with the response objects.
  function request(method, params) {
    const id = nextId++;
    const message = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    return { id, message, answer: expect(id) };
  }

  function expect(id) {
    return new Promise((resolve) => {
      const timeout = setTimeout(() => {
        pending.delete(id);
        resolve({ error: { code: -32001, message: "No answer within " + CALL_TIMEOUT_MS / 1000 + " s" } });
      }, CALL_TIMEOUT_MS);
      pending.set(id, { resolve, timeout });
    });
  }

  function send(payload) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(payload));
      return true;
    }
    return false;
  }

  async function poll() {
    const stats = request("get_server_stats");
    if (needLogin && identity === null) {
      // Signed out where the router wants an identity: only the router-wide counters, which it answers anyone.
      if (!send(stats.message)) return;
      const s = await stats.answer;
      if (s.result) showStats(s.result);
      return;
    }
    const methods = request("list_methods");
    const clients = request("list_clients");
    // The OpenRPC document (descriptions and params schemas) every fifth poll, and whenever the methods changed.
    const discover = polls++ % 5 === 0 || methodsChanged ? request("rpc.discover") : null;
    const batch = [stats.message, methods.message, clients.message];
    if (discover) batch.push(discover.message);
    if (!send(batch)) return;
    const [s, m, c, d] = await Promise.all([stats.answer, methods.answer, clients.answer, discover ? discover.answer : null]);
    if (s.result) showStats(s.result);
    if (isNotAuthenticated(m) || isNotAuthenticated(c)) {
      loginRequired();
      return;
    }
    if (d && d.result && Array.isArray(d.result.methods)) {
      descriptions = new Map(d.result.methods.map((method) => [method.name, method]));
      methodsChanged = false;
      showCallFields();
    }
    if (m.result) showMethods(m.result);
    if (c.result) showClients(c.result);
  }

  function isNotAuthenticated(answer) {
    return !!(answer && answer.error && answer.error.code === NOT_AUTHENTICATED);
  }

  // The router refused for want of an identity: show the form, and the lists as what they are, unknown.
  function loginRequired() {
    needLogin = true;
    identity = null;
    showIdentity();
    $("login").hidden = false;
    replaceRows($("methods").tBodies[0], [], 2, "Sign in to see the methods.");
    replaceRows($("clients").tBodies[0], [], 4, "Sign in to see the clients.");
    $("method-names").replaceChildren();
  }

  // Calls `authenticate` with the token; on success the connection is that identity's. A refused token is answered
  // -32005 and the router closes the connection: the error is shown and the socket reconnects at once for a retry.
  async function signIn(candidate, automatic) {
    const call = request("authenticate", { token: candidate });
    if (!send(call.message)) return false;
    const answer = await call.answer;
    if (answer.result) {
      token = candidate;
      identity = answer.result.identity;
      $("login").hidden = true;
      $("login-error").hidden = true;
      showIdentity();
      return true;
    }
    const error = answer.error || { code: 0, message: "No answer" };
    if (error.code === ACCESS_DENIED) {
      // The router closes the connection after refusing a token; reconnect at once so that the user can retry.
      token = null;
      reconnectDelay = 100;
      if (socket && socket.readyState === WebSocket.OPEN) socket.close(1000, "access denied");
    }
    loginRequired();
    const why = error.code === ACCESS_DENIED
      ? (automatic ? "The token was refused when signing in again after a reconnect" : "The token was refused")
      : error.code === -32000 ? "The connection closed while signing in; try again" : "Error " + error.code + ": " + error.message;
    const detail = typeof error.data === "string" ? error.data : error.data && typeof error.data.detail === "string" ? error.data.detail : "";
    const text = error.code === ACCESS_DENIED ? why + " (" + error.code + " " + error.message + ")." : why + (detail ? ": " + detail : ".");
    const box = $("login-error");
    box.textContent = text;
    box.dataset.code = String(error.code);
    box.hidden = false;
    return false;
  }

  function showIdentity() {
    const label = $("identity");
    if (identity !== null) {
      const name = document.createElement("strong");
      name.textContent = identity;
      label.replaceChildren("signed in as ", name);
      label.dataset.identity = identity;
    } else {
      label.replaceChildren();
      delete label.dataset.identity;
    }
    label.hidden = identity === null;
    $("logout").hidden = identity === null;
    $("login-show").hidden = identity !== null || !securityOn || !$("login").hidden;
  }

  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("login-token");
    const candidate = input.value;
    if (!candidate) return;
    input.value = "";
    $("login-submit").disabled = true;
    $("login-error").hidden = true;
    try {
      if (!(await whenOpen(10000))) {
        const box = $("login-error");
        box.textContent = "Not connected to the router; try again.";
        box.hidden = false;
      } else if (await signIn(candidate, false)) {
        poll();
      }
    } finally {
      $("login-submit").disabled = false;
    }
  });

  // Waits (bounded) for the socket to be open: after a refused token it is being reopened.
  async function whenOpen(ms) {
    const until = Date.now() + ms;
    while (!(socket && socket.readyState === WebSocket.OPEN) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return !!socket && socket.readyState === WebSocket.OPEN;
  }

  $("login-show").addEventListener("click", () => {
    $("login").hidden = false;
    showIdentity();
    $("login-token").focus();
  });

  // Signing out forgets the token and opens a new connection (a connection keeps the identity it signed in as).
  $("logout").addEventListener("click", () => {
    token = null;
    identity = null;
    reconnectDelay = 100;
    if (needLogin) loginRequired();
    show($("call-result"), "", "");
    showIdentity();
    if (socket) socket.close(1000, "signed out");
  });

  function showStats(stats) {
    const now = performance.now();
    const calls = stats.calls_routed + stats.server_calls;
    if (previous) {
      const seconds = Math.max((now - previous.at) / 1000, 0.001);
      // The dashboard's own three polling calls are not routed or served by the host, so they do not count here.
      push(history.calls, Math.max(0, (calls - previous.calls) / seconds));
      push(history.errors, Math.max(0, (stats.errors - previous.errors) / seconds));
      $("stat-calls-rate").textContent = format(history.calls[history.calls.length - 1]);
      $("stat-errors-rate").textContent = format(history.errors[history.errors.length - 1]);
      draw();
    }
    previous = { at: now, calls, errors: stats.errors };
    $("stat-connections").textContent = stats.connections;
    $("stat-registered").textContent = stats.registered_clients;
    $("stat-methods").textContent = stats.methods;
    $("stat-pending").textContent = stats.pending_calls;
    $("stat-uptime").textContent = uptime(stats.uptime_ms);
    showSecurity(stats);
  }

  // With a security policy the counters carry the refusals by reason and the identities this viewer may see
  // (a monitor sees every identity, another identity its own, a connection that has not signed in none).
  function showSecurity(stats) {
    securityOn = stats.refusals !== undefined;
    $("security").hidden = !securityOn;
    if (!securityOn) {
      needLogin = false;
      $("login").hidden = true;
      showIdentity();
      return;
    }
    showIdentity();
    const identities = stats.identities || {};
    const rows = Object.keys(identities).sort().map((name) => {
      const counters = identities[name];
      const row = document.createElement("tr");
      row.dataset.identity = name;
      row.append(cell(name, "mono"));
      for (const key of ["connections", "calls", "in_flight", "refusals", "rate_limited"]) {
        const value = counters[key] ?? 0;
        const td = cell(String(value), "num" + (value === 0 ? " zero" : ""));
        td.dataset.counter = key;
        row.append(td);
      }
      return row;
    });
    replaceRows($("identities").tBodies[0], rows, 6, identity === null ? "Sign in to see identities." : "No identities yet.");
    const reasons = Object.keys(stats.refusals).map((reason) => {
      const value = stats.refusals[reason];
      const row = document.createElement("tr");
      row.dataset.reason = reason;
      row.append(cell(reason.replace(/_/g, " ")), cell(String(value), "num" + (value === 0 ? " zero" : "")));
      return row;
    });
    replaceRows($("refusals").tBodies[0], reasons, 2, "No refusals.");
  }

  function showMethods(methods) {
    const body = $("methods").tBodies[0];
    const names = methods.map((entry) => entry.method).join("\n");
    if (names !== knownMethods) {
      methodsChanged = knownMethods !== null;
      knownMethods = names;
    }
    const rows = methods.map((entry) => {
      const row = document.createElement("tr");
      row.dataset.method = entry.method;
      const name = cell(entry.method, "mono");
      const described = descriptions.get(entry.method);
      const summary = cell(described ? described.summary || described.description || "" : "", "summary");
      const providers = document.createElement("td");
      if (entry.server) providers.append(tag("host", "server"));
      for (const provider of entry.providers) providers.append(tag(provider));
      row.append(name, summary, providers);
      return row;
    });
    replaceRows(body, rows, 3, "No methods yet.");
    // Suggestions: the methods registered now and every method rpc.discover describes (the router's built-ins too).
    const suggested = [...new Set([...methods.map((entry) => entry.method), ...descriptions.keys()])].sort();
    $("method-names").replaceChildren(...suggested.map((name) => Object.assign(document.createElement("option"), { value: name })));
  }

  function showClients(clients) {
    const rows = clients.map((client) => {
      const row = document.createElement("tr");
      row.dataset.client = client.name;
      row.append(cell(client.name), cell(client.remote || "–", "mono"), cell(client.methods), cell(client.subscriptions));
      return row;
    });
    replaceRows($("clients").tBodies[0], rows, 4, "No registered clients.");
  }

  function replaceRows(body, rows, columns, emptyText) {
    if (rows.length === 0) {
      const row = document.createElement("tr");
      row.className = "empty";
      const only = cell(emptyText);
      only.colSpan = columns;
      row.append(only);
      rows = [row];
    }
    body.replaceChildren(...rows);
  }

  function cell(text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  function tag(text, className) {
    const span = document.createElement("span");
    span.className = "tag" + (className ? " " + className : "");
    span.textContent = text;
    return span;
  }

  function push(series, value) {
    series.push(value);
    if (series.length > HISTORY) series.shift();
  }

  function format(value) {
    return value >= 100 ? Math.round(value).toString() : value.toFixed(1);
  }

  function uptime(ms) {
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return h > 0 ? h + "h " + m + "m" : m > 0 ? m + "m " + (s % 60) + "s" : s + "s";
  }

  function draw() {
    const canvas = $("chart");
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (canvas.width !== width * ratio || canvas.height !== height * ratio) {
      canvas.width = width * ratio;
      canvas.height = height * ratio;
    }
    const g = canvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    const styles = getComputedStyle(document.documentElement);
    const left = 44, right = 8, top = 8, bottom = 20;
    const max = niceMax(Math.max(1, ...history.calls, ...history.errors));
    const x = (i) => left + (i / (HISTORY - 1)) * (width - left - right);
    const y = (v) => top + (1 - v / max) * (height - top - bottom);

    g.strokeStyle = styles.getPropertyValue("--line");
    g.fillStyle = styles.getPropertyValue("--muted");
    g.font = "11px system-ui, sans-serif";
    g.lineWidth = 1;
    for (let k = 0; k <= 4; k++) {
      const value = (max * k) / 4;
      g.beginPath();
      g.moveTo(left, y(value));
      g.lineTo(width - right, y(value));
      g.stroke();
      g.fillText(format(value), 4, y(value) + 4);
    }
    g.fillText("-60 s", left, height - 4);
    g.fillText("now", width - right - 22, height - 4);

    line(g, history.calls, styles.getPropertyValue("--calls"), x, y);
    line(g, history.errors, styles.getPropertyValue("--errors"), x, y);
  }

  function line(g, series, color, x, y) {
    if (series.length === 0) return;
    const offset = HISTORY - series.length;
    g.strokeStyle = color;
    g.lineWidth = 2;
    g.beginPath();
    series.forEach((value, i) => (i === 0 ? g.moveTo(x(offset + i), y(value)) : g.lineTo(x(offset + i), y(value))));
    g.stroke();
  }

  function niceMax(value) {
    const power = Math.pow(10, Math.floor(Math.log10(value)));
    for (const step of [1, 2, 5, 10]) if (value <= step * power) return step * power;
    return 10 * power;
  }

  // The call form from the method's OpenRPC description: its summary, and one field per param built from the param's
  // schema (a number, a text, true/false, or JSON for anything else). Without a description: the params as JSON.
  function showCallFields() {
    const method = $("call-method").value.trim();
    const described = descriptions.get(method);
    const params = described && Array.isArray(described.params) && described.params.length > 0 ? described.params : null;
    $("call-summary").textContent = described ? [described.summary, described.description].filter(Boolean).join(" – ") : "";
    const key = method + "\n" + JSON.stringify(params);
    if (key === fieldsFor) return;
    fieldsFor = key;
    const fields = $("call-fields");
    fields.replaceChildren(...(params || []).map(field));
    fields.hidden = !params;
    $("call-params-label").hidden = !!params;
  }

  function field(param, index) {
    const schema = param.schema && typeof param.schema === "object" ? param.schema : {};
    // A list of types (a number that may also come as a string, a nullable value): the most specific one.
    const types = [].concat(schema.type || []);
    const type = ["integer", "number", "boolean", "string"].find((t) => types.includes(t)) || types.find((t) => t !== "null");
    const label = document.createElement("label");
    label.className = "param";
    label.append(param.name + (param.required ? " *" : "") + " ");
    let input;
    if (type === "boolean") {
      input = document.createElement("select");
      for (const value of param.required ? ["true", "false"] : ["", "true", "false"]) input.append(new Option(value || "(leave out)", value));
    } else if (type === "integer" || type === "number" || type === "string") {
      input = document.createElement("input");
      input.type = type === "string" ? "text" : "number";
      if (type === "integer") input.step = "1";
      if (type === "number") input.step = "any";
    } else {
      input = document.createElement("textarea");
      input.rows = 2;
      input.placeholder = schema.type ? "JSON " + [].concat(schema.type).join(" or ") : "JSON";
    }
    input.dataset.param = param.name;
    input.dataset.kind = type === "boolean" || type === "integer" || type === "number" || type === "string" ? type : "json";
    input.dataset.index = index;
    input.required = !!param.required && input.dataset.kind !== "boolean";
    if (param.description || schema.description) input.title = param.description || schema.description;
    label.append(input);
    return label;
  }

  // The params from the fields: by position where the method says so, else by name; optional fields left empty are left out.
  function paramsFromFields(described) {
    const named = {};
    const positional = [];
    for (const input of $("call-fields").querySelectorAll("[data-param]")) {
      const raw = input.value.trim();
      if (raw === "") continue;
      let value;
      switch (input.dataset.kind) {
        case "integer": case "number": value = Number(raw); break;
        case "boolean": value = raw === "true"; break;
        case "string": value = input.value; break;
        default:
          try { value = JSON.parse(raw); } catch (error) { throw new Error(input.dataset.param + " is not valid JSON: " + error.message); }
      }
      named[input.dataset.param] = value;
      positional[Number(input.dataset.index)] = value;
    }
    const whole = described.params.length === 1 && described.params[0]["x-whole-params"];
    if (whole) return named[described.params[0].name];
    return described.paramStructure === "by-position" ? positional : named;
  }

  $("call-method").addEventListener("input", showCallFields);

  $("call-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = $("call-result");
    const method = $("call-method").value.trim();
    const text = $("call-params").value.trim();
    const described = descriptions.get(method);
    let params;
    if (!$("call-fields").hidden && described) {
      try {
        params = paramsFromFields(described);
      } catch (error) {
        show(result, "error", error.message);
        return;
      }
    } else if (text) {
      try {
        params = JSON.parse(text);
      } catch (error) {
        show(result, "error", "Params are not valid JSON: " + error.message);
        return;
      }
    }
    const call = request(method, params);
    if (!send(call.message)) {
      show(result, "error", "Not connected.");
      return;
    }
    $("call-submit").disabled = true;
    show(result, "", "Calling " + method + "…");
    const answer = await call.answer;
    $("call-submit").disabled = false;
    if (isNotAuthenticated(answer)) loginRequired();
    if (answer.error) show(result, "error", "Error " + answer.error.code + ": " + answer.error.message +
      (answer.error.data !== undefined ? "\n" + JSON.stringify(answer.error.data, null, 2) : ""));
    else show(result, "ok", JSON.stringify(answer.result, null, 2));
  });

  function show(element, state, text) {
    element.className = "result" + (state ? " " + state : "");
    element.dataset.state = state || "pending";
    element.textContent = text;
  }

  window.addEventListener("resize", draw);
  connect();
})();
