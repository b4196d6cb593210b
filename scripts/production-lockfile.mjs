// The repository's package-lock.json cut down to what a production install of the compiled
// server needs: the closure of its runtime dependencies, at exactly the versions (and
// integrity hashes) the tests ran against. `npm ci --omit=dev` then installs just that, with
// no workspaces, console, build tools or test tools.

const FLAGS_OF_THE_WHOLE_TREE = ['dev', 'devOptional', 'optional', 'peer'];

/**
 * Where Node would find `name` from the package installed at `fromPath` ('' is the root):
 * its own node_modules first, then each enclosing one, as the lockfile lays them out.
 */
function resolveInstalledPath(packages, name, fromPath) {
  let base = fromPath;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const parentEnd = base.lastIndexOf('/node_modules/');
    base = parentEnd === -1 ? '' : base.slice(0, parentEnd);
  }
}

function edgesOf(entry) {
  const edges = [];
  for (const name of Object.keys(entry.dependencies ?? {})) edges.push({ name, isOptional: false });
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    edges.push({ name, isOptional: true });
  }
  // npm installs peer dependencies too, unless their package marks them optional.
  for (const name of Object.keys(entry.peerDependencies ?? {})) {
    edges.push({ name, isOptional: entry.peerDependenciesMeta?.[name]?.optional === true });
  }
  return edges;
}

/**
 * @param {{ packages: Record<string, Record<string, unknown>> }} lock the repository's lockfile (v3)
 * @param {{ name: string, engines?: Record<string, string>, dependencies: Record<string, string> }} manifest the production package.json
 */
export function productionLockfile(lock, manifest) {
  if (lock.lockfileVersion !== 3) throw new Error('expected a lockfileVersion 3 package-lock.json');
  const { packages } = lock;
  // A workspace's own copy (apps/server/node_modules/x) means its version conflicts with the
  // one at the root, which another package needs: the production tree has one root, so the
  // copy the server needs could not be laid out, and `npm ci` would refuse the lockfile.
  for (const name of Object.keys(manifest.dependencies)) {
    const nested = Object.keys(packages).find((path) => {
      const [workspace, installed, ...deeper] = path.split('/node_modules/');
      return (
        installed === name && deeper.length === 0 && /^(apps|packages)\/[^/]+$/.test(workspace)
      );
    });
    if (nested) {
      throw new Error(
        `${name} is installed at ${nested}: its version conflicts with node_modules/${name}, which another package needs. Use the root's version (npm ls ${name}).`,
      );
    }
  }
  /** installed path -> whether only optional dependencies lead to it */
  const isOptionalOnly = new Map();
  const queue = Object.keys(manifest.dependencies).map((name) => ({
    name,
    fromPath: '',
    isOptional: false,
  }));
  while (queue.length > 0) {
    const { name, fromPath, isOptional } = queue.shift();
    const path = resolveInstalledPath(packages, name, fromPath);
    if (!path) {
      if (isOptional) continue;
      throw new Error(
        `${name} (needed by ${fromPath || 'the server'}) is not in package-lock.json`,
      );
    }
    if (packages[path].link) {
      throw new Error(`${name} is a workspace link: the build must bundle it, not install it`);
    }
    const wasOptionalOnly = isOptionalOnly.get(path);
    if (wasOptionalOnly === false || (wasOptionalOnly === true && isOptional)) continue;
    isOptionalOnly.set(path, isOptional);
    for (const edge of edgesOf(packages[path])) {
      queue.push({ name: edge.name, fromPath: path, isOptional: isOptional || edge.isOptional });
    }
  }

  const kept = {};
  for (const path of [...isOptionalOnly.keys()].sort()) {
    const entry = { ...packages[path] };
    for (const flag of FLAGS_OF_THE_WHOLE_TREE) delete entry[flag];
    if (isOptionalOnly.get(path)) entry.optional = true;
    kept[path] = entry;
  }
  return {
    name: manifest.name,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': {
        name: manifest.name,
        ...(manifest.engines ? { engines: manifest.engines } : {}),
        dependencies: manifest.dependencies,
      },
      ...kept,
    },
  };
}
