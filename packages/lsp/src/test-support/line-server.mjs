// A small but real language server for tests: every line holding `ERROR:<text>` (or `WARN:<text>`)
// gets an error (warning) diagnostic at that spot. Flags pick how it reports and how it misbehaves:
//   --pull            offer textDocument/diagnostic (and never push)
//   --cancel-first    answer the first pull with ServerCancelled
//   --unversioned     push without a version
//   --crash-on-change exit with code 3 on the first didChange
//   --mute            initialise, then never report any diagnostics
import {
  createMessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';

const flags = new Set(process.argv.slice(2));
const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);
const documents = new Map();
let cancelled = false;

function diagnose(text) {
  const out = [];
  text.split('\n').forEach((line, lineNo) => {
    for (const [marker, severity] of [
      ['ERROR:', 1],
      ['WARN:', 2],
    ]) {
      const at = line.indexOf(marker);
      if (at >= 0) {
        out.push({
          range: { start: { line: lineNo, character: at }, end: { line: lineNo, character: line.length } },
          severity,
          source: 'line-server',
          message: line.slice(at + marker.length).trim(),
        });
      }
    }
  });
  return out;
}

function publish(uri) {
  const doc = documents.get(uri);
  if (flags.has('--pull') || flags.has('--mute')) return;
  const params = { uri, diagnostics: diagnose(doc.text) };
  if (!flags.has('--unversioned')) params.version = doc.version;
  connection.sendNotification('textDocument/publishDiagnostics', params);
}

connection.onRequest('initialize', () => ({
  capabilities: {
    textDocumentSync: 1,
    ...(flags.has('--pull')
      ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } }
      : {}),
  },
}));
connection.onRequest('shutdown', () => null);
connection.onNotification('exit', () => process.exit(0));
connection.onNotification('textDocument/didOpen', ({ textDocument }) => {
  documents.set(textDocument.uri, { text: textDocument.text, version: textDocument.version });
  publish(textDocument.uri);
});
connection.onNotification('textDocument/didChange', ({ textDocument, contentChanges }) => {
  if (flags.has('--crash-on-change')) {
    process.stderr.write('line-server: crashing on purpose\n');
    process.exit(3);
  }
  const last = contentChanges[contentChanges.length - 1];
  documents.set(textDocument.uri, { text: last.text, version: textDocument.version });
  publish(textDocument.uri);
});
connection.onNotification('textDocument/didClose', ({ textDocument }) => {
  documents.delete(textDocument.uri);
});
connection.onRequest('textDocument/diagnostic', ({ textDocument }) => {
  if (flags.has('--cancel-first') && !cancelled) {
    cancelled = true;
    throw new ResponseError(-32802, 'server cancelled', { retriggerRequest: true });
  }
  const doc = documents.get(textDocument.uri);
  return { kind: 'full', items: doc ? diagnose(doc.text) : [] };
});
connection.listen();
