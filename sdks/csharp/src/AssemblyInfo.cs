using System.Reflection;

// The version attributes are written by build.sh from Latchkey.Client.nuspec, the one place the
// package's version is kept.

[assembly: AssemblyTitle("Latchkey.Client")]
[assembly: AssemblyDescription("The Latchkey client: signed answers checked, offline licences, heartbeats, a machine id.")]
[assembly: AssemblyCompany("Latchkey")]
[assembly: AssemblyProduct("Latchkey.Client")]
