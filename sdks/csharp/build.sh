#!/bin/sh
# Builds Latchkey.Client.dll (C# 7, .NET Framework 4.5 profile, with its XML documentation) with
# Mono's mcs and packs it with nuget into Latchkey.Client.<version>.nupkg, in OUT_DIR (default:
# sdks/csharp/dist). Debian: apt-get install mono-mcs mono-runtime libmono-system-net-http4.0-cil nuget.
#   sdks/csharp/build.sh [OUT_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/dist"}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The nuspec holds the package's one version; the assembly is stamped with it here.
version=$(sed -n 's:.*<version>\([0-9][0-9.]*\)</version>.*:\1:p' "$here/Latchkey.Client.nuspec")
[ -n "$version" ] || { echo "build.sh: no <version> in Latchkey.Client.nuspec" >&2; exit 1; }
stamp="$out/AssemblyVersion.g.cs"
cat >"$stamp" <<STAMP
[assembly: System.Reflection.AssemblyVersion("$version.0")]
[assembly: System.Reflection.AssemblyFileVersion("$version.0")]
[assembly: System.Reflection.AssemblyInformationalVersion("$version")]
STAMP

# CS1591 (a public member without a doc comment) aside, every warning is an error.
mcs -langversion:7 -target:library -optimize+ -warnaserror+ -nowarn:1591 \
  -r:System.Net.Http.dll \
  -doc:"$out/Latchkey.Client.xml" -out:"$out/Latchkey.Client.dll" \
  "$here"/src/*.cs "$stamp"
rm -f "$stamp"

# nuget keeps a cache and settings under HOME: a throwaway one leaves the user's untouched. Its
# output goes nowhere: nuget 2.8.7 under Mono prints nothing useful when it succeeds.
nuget_home=$(mktemp -d)
trap 'rm -rf "$nuget_home"' EXIT
HOME="$nuget_home" nuget pack "$here/Latchkey.Client.nuspec" -BasePath "$out" -OutputDirectory "$out" \
  -NoPackageAnalysis -NonInteractive >/dev/null
package="$out/Latchkey.Client.$version.nupkg"
[ -f "$package" ] || { echo "build.sh: nuget wrote no $package" >&2; exit 1; }
echo "$package"
