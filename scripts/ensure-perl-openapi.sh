#!/usr/bin/env bash
# Perl's OpenAPI::Client from Debian's packages (libopenapi-client-perl), for test/openapi/perl-client.test.ts:
# installed when missing (apt-get, as root), else nothing. Prints nothing on success.
set -euo pipefail
if perl -MOpenAPI::Client -e 1 2>/dev/null; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "ensure-perl-openapi: OpenAPI::Client missing and not root: apt-get install libopenapi-client-perl" >&2
  exit 1
fi
echo "ensure-perl-openapi: installing Debian's libopenapi-client-perl (apt-get)" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libopenapi-client-perl >&2
perl -MOpenAPI::Client -e 1
