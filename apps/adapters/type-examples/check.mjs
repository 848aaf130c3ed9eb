// Type-checks user projects (folders with a tsconfig.json) as `tsc --noEmit` would, with the
// projects' own options (skipLibCheck: false), reporting every diagnostic of the project's own
// files and of the declaration files of @patchsmith packages. The SDKs' own declaration files are
// checked only as far as those files use them (a full check of @openai/agents' 300,000 lines
// takes minutes and says nothing about ours). Parsed files are shared between the projects.
//   node check.mjs <project>...   -> one JSON object: { [project]: "tsc-formatted errors" }
import { dirname } from 'node:path';
import ts from 'typescript';

const parsed = new Map();

/** A compiler host that parses each file once for all projects (same text, same settings). */
function sharedHost(options) {
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, settings, onError, fresh) => {
    const format = typeof settings === 'object' ? settings.impliedNodeFormat : undefined;
    const key = `${fileName}\0${typeof settings === 'object' ? settings.languageVersion : settings}\0${format}`;
    if (!fresh && parsed.has(key)) return parsed.get(key);
    const file = getSourceFile(fileName, settings, onError, fresh);
    if (file) parsed.set(key, file);
    return file;
  };
  return host;
}

/**
 * A file whose diagnostics are the user's or ours: the project's, the adapters copied into it, and
 * the other @patchsmith packages (linked, so found at their real paths outside any node_modules).
 */
const ours = (project) => (file) =>
  !file.fileName.includes('/node_modules/') ||
  file.fileName.startsWith(`${project}/node_modules/@patchsmith/`);

function check(project) {
  const configFile = ts.findConfigFile(project, ts.sys.fileExists);
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host: sharedHost(config.options),
  });
  const files = program.getSourceFiles().filter(ours(project));
  const diagnostics = [
    ...config.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
  ];
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => dirname(configFile),
    getNewLine: () => '\n',
  });
}

const results = {};
for (const project of process.argv.slice(2)) results[project] = check(project);
process.stdout.write(JSON.stringify(results));
