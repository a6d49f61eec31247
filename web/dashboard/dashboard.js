// The dashboard's shell (served by `aifabric serve` at /, docs/serve.md
// "Dashboard"): the JSON API client (with the --token dialog), small DOM
// helpers, the hash router (#/ runs, #/run/ID a run, #/compare/A/B two
// runs) and the runs view: the list with status and headline figures and
// the form that starts a run from an example or a pasted scenario.
// dashboard_live.js (a run) and dashboard_views.js (compare, plan, job)
// register their views on window.Dash. Text from the server only ever goes
// through textContent. Every request goes to this server (relative URLs).
(function () {
  'use strict';

  const kTokenKey = 'aifabric.token';
  const kListPollMs = 1000;

  const Dash = {views: {}};
  window.Dash = Dash;

  // ---- DOM helpers ----
  Dash.El = function (tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };
  Dash.Section = function (parent, title, id) {
    const s = Dash.El('section');
    if (id) s.id = id;
    if (title) s.appendChild(Dash.El('h2', '', title));
    parent.appendChild(s);
    return s;
  };
  Dash.IsNumber = function (v) { return typeof v === 'number' && Number.isFinite(v); };
  // A figure for people: 3 significant digits, thousands grouped.
  Dash.Fmt = function (v, digits) {
    if (!Dash.IsNumber(v)) return v === undefined || v === null ? '–' : String(v);
    if (Number.isInteger(v) && Math.abs(v) < 1e15) return v.toLocaleString('en-US');
    return Number(v.toPrecision(digits || 3)).toLocaleString('en-US', {maximumFractionDigits: 6});
  };
  Dash.FmtNs = function (ns) {
    if (!Dash.IsNumber(ns)) return '–';
    if (ns >= 1e9) return Dash.Fmt(ns / 1e9) + ' s';
    if (ns >= 1e6) return Dash.Fmt(ns / 1e6) + ' ms';
    if (ns >= 1e3) return Dash.Fmt(ns / 1e3) + ' µs';
    return Dash.Fmt(ns) + ' ns';
  };
  Dash.FmtPercent = function (x) { return Dash.IsNumber(x) ? Dash.Fmt(100 * x) + ' %' : '–'; };
  Dash.FmtTime = function (ms) { return ms > 0 ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) : '–'; };

  // Shows a message in the banner at the top of the view.
  Dash.ShowError = function (message) {
    const banner = document.getElementById('banner');
    if (!banner) return;
    banner.textContent = message;
    banner.hidden = !message;
  };

  // ---- the API ----
  function Token() { return window.sessionStorage.getItem(kTokenKey) || ''; }
  function ShowTokenState() {
    document.getElementById('token-state').textContent =
        Token() ? 'token set' : Dash.tokenRequired ? 'this server needs a token to start runs' : '';
  }

  // Asks for the token; resolves true when one was given.
  function AskToken(message) {
    const dialog = document.getElementById('token-dialog');
    const form = document.getElementById('token-form');
    const input = document.getElementById('token-input');
    document.getElementById('token-error').textContent = message || '';
    input.value = '';
    return new Promise(function (resolve) {
      function Done(ok) {
        form.removeEventListener('submit', OnSubmit);
        document.getElementById('token-cancel').removeEventListener('click', OnCancel);
        dialog.close();
        resolve(ok);
      }
      function OnSubmit(ev) {
        ev.preventDefault();
        window.sessionStorage.setItem(kTokenKey, input.value);
        ShowTokenState();
        Done(true);
      }
      function OnCancel() { Done(false); }
      form.addEventListener('submit', OnSubmit);
      document.getElementById('token-cancel').addEventListener('click', OnCancel);
      dialog.showModal();
      input.focus();
    });
  }

  // fetch() of this server's `path`; POST and DELETE carry the token, and a
  // 401 asks for it and tries again. Resolves {status, json, text}.
  Dash.Request = async function (method, path, body, contentType) {
    const changes = method === 'POST' || method === 'DELETE';
    if (changes && Dash.tokenRequired && !Token() && !(await AskToken(''))) {
      return {status: 401, json: {error: 'this server needs its --token to start or cancel a run'}, text: ''};
    }
    for (let attempt = 0; ; attempt++) {
      const headers = {};
      if (body !== undefined) headers['Content-Type'] = contentType || 'application/yaml';
      if (changes && Token()) headers.Authorization = 'Bearer ' + Token();
      const response = await fetch(path, {method: method, headers: headers, body: body, cache: 'no-store'});
      const text = await response.text();
      let json = null;
      try { json = JSON.parse(text); } catch (e) { json = null; }
      if (response.status === 401 && attempt < 3) {
        const again = await AskToken('The server refused that token.');
        if (again) continue;
      }
      return {status: response.status, json: json, text: text};
    }
  };
  // GET `path` as JSON; null on any error (a 404 before a file exists).
  Dash.GetJson = async function (path) {
    const r = await Dash.Request('GET', path);
    return r.status === 200 ? r.json : null;
  };
  Dash.GetText = async function (path) {
    const r = await Dash.Request('GET', path);
    return r.status === 200 ? r.text : null;
  };
  Dash.RunPath = function (id) { return '/api/runs/' + encodeURIComponent(id); };
  Dash.FilePath = function (id, name) { return Dash.RunPath(id) + '/files/' + name; };

  // A CSV's rows as objects (no quoted commas: aifabric's CSVs have none).
  Dash.ParseCsv = function (text, maxRows) {
    const lines = text.split('\n').filter(function (l) { return l.length > 0; });
    if (lines.length === 0) return [];
    const header = lines[0].split(',');
    const rows = [];
    for (let i = 1; i < lines.length && rows.length < (maxRows || Infinity); i++) {
      const cells = lines[i].split(',');
      const row = {};
      header.forEach(function (h, k) { row[h] = cells[k]; });
      rows.push(row);
    }
    return rows;
  };

  // ---- ECharts ----
  // A chart in a new div of `parent`; the instance. Without animation, so a
  // frame shows the data as it is.
  Dash.Chart = function (parent, name, height) {
    const div = Dash.El('div', 'chart');
    div.dataset.chartName = name;
    div.style.height = (height || 220) + 'px';
    parent.appendChild(div);
    const chart = echarts.init(div, null, {renderer: 'canvas'});
    Dash.charts.push(chart);
    return chart;
  };
  Dash.charts = [];
  window.addEventListener('resize', function () { Dash.charts.forEach(function (c) { c.resize(); }); });

  // ---- headline figures of a run's summary ----
  // [label, text] pairs: the figures a list row and a comparison show.
  Dash.Headline = function (run) {
    const s = run.summary;
    if (!s || typeof s !== 'object') return [];
    const out = [];
    if (s.flows) {
      out.push(['flows', Dash.Fmt(s.flows.count)]);
      if (s.flows.fct_ns) out.push(['FCT p99', Dash.FmtNs(s.flows.fct_ns.p99)]);
    }
    if (s.links && Dash.IsNumber(s.links.max_util)) out.push(['max util', Dash.FmtPercent(s.links.max_util)]);
    if (Dash.IsNumber(s.drops)) out.push(['drops', Dash.Fmt(s.drops)]);
    if (Dash.IsNumber(s.pfc_pause_ns)) out.push(['PFC pause', Dash.FmtNs(s.pfc_pause_ns)]);
    if (Array.isArray(s.training) && s.training.length > 0) {
      const t = s.training[0];
      out.push(['step', Dash.Fmt(t.step_time_s) + ' s']);
      out.push(['GPU util', Dash.FmtPercent(t.effective_gpu_utilization)]);
    }
    if (Array.isArray(s.designs)) {
      out.push(['designs', Dash.Fmt(s.designs.length)]);
      if (s.designs.length > 0) out.push(['chosen', String(s.designs[0].name)]);
    }
    if (Dash.IsNumber(s.sim_time_ns) && !s.flows) out.push(['sim time', Dash.FmtNs(s.sim_time_ns)]);
    if (Dash.IsNumber(s.passes)) {
      out.push(['passes', Dash.Fmt(s.passes)]);
      if (s.top_finding) out.push(['top finding', s.top_finding.kind + ' ' + s.top_finding.node + ' → ' + s.top_finding.port_peer]);
    }
    return out;
  };

  // ---- the runs view ----
  let listTimer = null;
  const summaries = {};  // id -> GET /api/runs/{id} of a finished run (it no longer changes)

  async function RunsView(main) {
    const start = Dash.Section(main, 'Start a run', 'start');
    const list = Dash.Section(main, 'Runs', 'runs');
    await StartForm(start);
    const table = Dash.El('table', 'runs');
    const head = Dash.El('thead');
    const hr = Dash.El('tr');
    ['', 'run', 'kind', 'status', 'progress', 'created', 'figures'].forEach(function (h) { hr.appendChild(Dash.El('th', '', h)); });
    head.appendChild(hr);
    table.appendChild(head);
    table.appendChild(Dash.El('tbody'));
    const compare = Dash.El('button', '', 'Compare the two ticked runs');
    compare.id = 'compare-button';
    compare.disabled = true;
    compare.addEventListener('click', function () {
      const ticked = [...table.querySelectorAll('input[type=checkbox]:checked')].map(function (c) { return c.value; });
      if (ticked.length === 2) window.location.hash = '#/compare/' + ticked[1] + '/' + ticked[0];
    });
    table.addEventListener('change', function () {
      compare.disabled = table.querySelectorAll('input[type=checkbox]:checked').length !== 2;
    });
    list.appendChild(table);
    list.appendChild(compare);
    await RefreshList(table);
    document.body.dataset.ready = 'true';
  }

  async function RefreshList(table) {
    const answer = await Dash.GetJson('/api/runs?limit=50');
    if (!answer || !table.isConnected) return;
    const ticked = new Set([...table.querySelectorAll('input[type=checkbox]:checked')].map(function (c) { return c.value; }));
    const body = table.querySelector('tbody');
    const rows = [];
    let live = false;
    for (const run of answer.runs) {
      let full = summaries[run.id];
      if (!full && run.status === 'done') {
        full = await Dash.GetJson(Dash.RunPath(run.id));
        if (full) summaries[run.id] = full;
      }
      if (run.status === 'queued' || run.status === 'running') live = true;
      const tr = Dash.El('tr');
      tr.dataset.runId = run.id;
      tr.dataset.status = run.status;
      const tick = Dash.El('input');
      tick.type = 'checkbox';
      tick.value = run.id;
      tick.checked = ticked.has(run.id);
      const c0 = Dash.El('td');
      c0.appendChild(tick);
      tr.appendChild(c0);
      const c1 = Dash.El('td');
      const a = Dash.El('a', '', run.id);
      a.href = '#/run/' + run.id;
      c1.appendChild(a);
      tr.appendChild(c1);
      tr.appendChild(KindCell(run));
      tr.appendChild(Dash.El('td', 'status ' + run.status, run.status + (run.error ? ': ' + run.error : '')));
      tr.appendChild(Dash.El('td', 'num', Dash.FmtPercent(run.progress)));
      tr.appendChild(Dash.El('td', '', Dash.FmtTime(run.created_ms)));
      tr.appendChild(Dash.El('td', 'figures', Dash.Headline(full || run).map(function (p) { return p[0] + ' ' + p[1]; }).join(' · ')));
      rows.push(tr);
    }
    body.replaceChildren(...rows);
    if (answer.runs.length === 0) {
      const tr = Dash.El('tr');
      const td = Dash.El('td', 'note', 'No runs yet: start one above.');
      td.colSpan = 7;
      tr.appendChild(td);
      body.appendChild(tr);
    }
    clearTimeout(listTimer);
    if (live) listTimer = setTimeout(function () { RefreshList(table); }, kListPollMs);
  }

  // The kind, with a badge for an attached fabric (kind observe) and the
  // attachment a what-if run goes beside.
  function KindCell(run) {
    const td = Dash.El('td', '', run.kind);
    if (run.kind === 'observe') {
      td.appendChild(document.createTextNode(' '));
      td.appendChild(Dash.El('span', 'badge live-fabric', 'live fabric'));
      if (run.name) td.appendChild(Dash.El('span', '', ' ' + run.name));
    }
    if (run.whatif_of) {
      td.appendChild(document.createTextNode(' · what-if of '));
      const a = Dash.El('a', '', run.whatif_of);
      a.href = '#/compare/' + run.whatif_of + '/' + run.id;
      td.appendChild(a);
    }
    return td;
  }

  async function StartForm(section) {
    const answer = await Dash.GetJson('/api/examples');
    const examples = answer ? answer.examples : [];
    const form = Dash.El('form', 'start');
    form.id = 'start-form';
    function Field(label, input) {
      const l = Dash.El('label', '', label + ' ');
      l.appendChild(input);
      form.appendChild(l);
      return input;
    }
    const example = Field('Example', Dash.El('select'));
    example.id = 'example';
    examples.forEach(function (e, i) {
      const o = Dash.El('option', '', e.name + ' (' + e.file + ')');
      o.value = String(i);
      example.appendChild(o);
    });
    const pasted = Dash.El('option', '', 'pasted scenario');
    pasted.value = 'pasted';
    example.appendChild(pasted);
    const kind = Field('Kind', Dash.El('select'));
    kind.id = 'kind';
    ['run', 'collective', 'plan'].forEach(function (k) {
      const o = Dash.El('option', '', k);
      o.value = k;
      kind.appendChild(o);
    });
    const model = Field('Model', Dash.El('select'));
    model.id = 'model';
    [['', 'as the scenario says'], ['packet', 'packet'], ['flow', 'flow'], ['analytic', 'analytic']].forEach(function (m) {
      const o = Dash.El('option', '', m[1]);
      o.value = m[0];
      model.appendChild(o);
    });
    const sets = Field('Overrides (--set KEY=VALUE, one a line)', Dash.El('textarea'));
    sets.id = 'overrides';
    sets.rows = 2;
    const text = Field('Scenario (YAML or JSON)', Dash.El('textarea'));
    text.id = 'scenario-text';
    text.rows = 14;
    text.spellcheck = false;
    const go = Dash.El('button', '', 'Start');
    go.type = 'submit';
    go.id = 'start-button';
    form.appendChild(go);
    const error = Dash.El('p', 'error');
    error.id = 'start-error';
    form.appendChild(error);
    function Pick() {
      const e = examples[Number(example.value)];
      if (!e) return;
      text.value = e.body;
      kind.value = e.kind;
      // The example's query: its model and overrides go into the form.
      const q = new URLSearchParams(e.query || '');
      model.value = q.get('model') || '';
      sets.value = q.getAll('set').join('\n');
    }
    example.addEventListener('change', Pick);
    text.addEventListener('input', function () { example.value = 'pasted'; });
    Pick();
    form.addEventListener('submit', async function (ev) {
      ev.preventDefault();
      error.textContent = '';
      const query = new URLSearchParams();
      query.append('kind', kind.value);
      if (model.value && kind.value !== 'plan') query.append('model', model.value);
      sets.value.split('\n').map(function (l) { return l.trim(); }).filter(Boolean).forEach(function (l) {
        query.append('set', l);
      });
      const e = examples[Number(example.value)];
      if (e && example.value !== 'pasted') query.append('name', e.file.split('/').pop());
      const body = text.value;
      const type = body.trim().startsWith('{') ? 'application/json' : 'application/yaml';
      go.disabled = true;
      try {
        const r = await Dash.Request('POST', '/api/runs?' + query.toString(), body, type);
        if (r.status === 201 && r.json) {
          window.location.hash = '#/run/' + r.json.id;
        } else {
          error.textContent = (r.json && r.json.error) || ('the server answered ' + r.status);
        }
      } finally {
        go.disabled = false;
      }
    });
    section.appendChild(form);
  }

  // ---- the router ----
  let current = null;  // the view's teardown
  async function Route() {
    if (current) current();
    current = null;
    clearTimeout(listTimer);
    Dash.charts.forEach(function (c) { c.dispose(); });
    Dash.charts = [];
    delete document.body.dataset.ready;
    const main = document.getElementById('app');
    main.replaceChildren();
    const banner = Dash.El('p', 'error banner');
    banner.id = 'banner';
    banner.hidden = true;
    main.appendChild(banner);
    const parts = window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
    try {
      if (parts[0] === 'run' && parts[1]) {
        current = await Dash.views.Run(main, parts[1]);
      } else if (parts[0] === 'compare') {
        current = await Dash.views.Compare(main, parts[1], parts[2]);
      } else {
        await RunsView(main);
      }
    } catch (e) {
      Dash.ShowError('The dashboard failed: ' + e.message);
    }
  }
  window.addEventListener('hashchange', Route);
  window.addEventListener('DOMContentLoaded', async function () {
    // Whether starting and cancelling need the token: asked for before the
    // first such request rather than after a 401.
    const info = await Dash.GetJson('/api/info');
    Dash.tokenRequired = Boolean(info && info.token_required);
    ShowTokenState();
    Route();
  });
})();
