#include "ciphers/catalog/keystream_spec.h"

#include "engine/errors.h"

namespace cb {

namespace {

std::string op_name(const KsOp& op) {
  static const char* names[] = {"AddKey", "KeyMul", "Affine", "Linear", "Quadratic", "Power", "Truncate"};
  return names[op.kind];
}

}  // namespace

void check_program(const KeystreamInstance& ks) {
  const auto& sp = ks.spec();
  const auto& F = ks.element_field();
  long w = ks.state_size();
  const long k = sp.key_elements;
  auto bad = [&](bool ok, long r, const KsStep& st, const KsOp& op, const std::string& why) {
    if (!ok)
      throw ParameterError(msg(sp.id, ": round ", r + 1, " step ", st.name, ": ", op_name(op), " ", why));
  };
  const auto rounds = ks.program();
  if (rounds.empty()) throw ParameterError(msg(sp.id, ": the keystream program is empty"));
  for (size_t r = 0; r < rounds.size(); ++r)
    for (const auto& st : rounds[r])
      for (const auto& op : st.ops) {
        const long R = long(r);
        auto index = [&](long i) { return i >= 0 && i < w; };
        auto coeff = [&](uint64_t c) { return F.contains(c); };
        switch (op.kind) {
          case KsOp::kAddKey:
          case KsOp::kKeyMul:
            bad(op.size >= 1 && op.size <= k, R, st, op, msg("of ", op.size, " elements: the key has ", k));
            [[fallthrough]];
          case KsOp::kAffine:
            bad(!op.companion || (op.kind == KsOp::kAffine && op.matrix), R, st, op, "companion without a matrix");
            bad(op.offset >= 0 && op.size >= 1 && op.offset + op.size <= w, R, st, op,
                msg("on [", op.offset, ", ", op.offset + op.size, "): the state has ", w, " elements"));
            break;
          case KsOp::kLinear:
          case KsOp::kQuadratic:
            for (const auto& t : op.L)
              bad(index(t.out) && index(t.in) && coeff(t.coeff), R, st, op,
                  msg("term (", t.out, ", ", t.in, ", ", t.coeff, ") outside the state or the field"));
            for (const auto& t : op.Q)
              bad(index(t.out) && index(t.a) && index(t.b) && coeff(t.coeff), R, st, op,
                  msg("product (", t.out, ", ", t.a, ", ", t.b, ", ", t.coeff, ") outside the state or the field"));
            break;
          case KsOp::kPower:
            bad(op.e >= 1, R, st, op, "with exponent 0");
            break;
          case KsOp::kTruncate:
            bad(op.size >= 1 && op.size <= w, R, st, op, msg("to ", op.size, " of ", w, " elements"));
            w = op.size;
            break;
        }
      }
  if (w != sp.s)
    throw ParameterError(msg(sp.id, ": the program outputs ", w, " elements, the instance declares s=", sp.s));
}

Elements companion_next_row(const CipherField& F, const Elements& row, const Elements& a) {
  const size_t k = row.size();
  if (a.size() != k) throw Error(msg("companion_next_row: a row of ", k, " elements and a of ", a.size()));
  Elements next(k);
  for (size_t j = 0; j < k; ++j) next[j] = F.add(j ? row[j - 1] : 0, F.mul(row[k - 1], a[j]));
  return next;
}

KsMaterial expand_material(const KeystreamInstance& ks, KsMaterial compact) {
  const auto& F = ks.element_field();
  size_t iM = 0;
  for (const auto& round : ks.program())
    for (const auto& st : round)
      for (const auto& op : st.ops) {
        if (op.kind != KsOp::kAffine || !op.matrix) continue;
        if (iM >= compact.M.size())
          throw Error(msg(ks.spec().id, ": step ", st.name, ": the compact material has no matrix ", iM));
        auto& M = compact.M[iM++];
        if (!op.companion) continue;
        if (M.size() != 1 || long(M[0].size()) != op.size)
          throw Error(msg(ks.spec().id, ": step ", st.name, ": companion matrix ", iM - 1, " is not one row of ",
                          op.size, " elements"));
        const Elements a = M[0];
        while (long(M.size()) < op.size) M.push_back(companion_next_row(F, M.back(), a));
      }
  if (iM != compact.M.size())
    throw Error(msg(ks.spec().id, ": the compact material has ", compact.M.size(), " matrices; the program ", iM));
  return compact;
}

Elements eval_program(const KeystreamInstance& ks, const Elements& key, const KsMaterial& mat) {
  const auto& F = ks.element_field();
  const auto& sp = ks.spec();
  if (long(key.size()) != sp.key_elements)
    throw Error(msg(sp.id, ": eval_program with a key of ", key.size(), " elements, not ", sp.key_elements));
  Elements x(ks.state_size(), 0);
  size_t iM = 0, ic = 0, irc = 0;
  for (const auto& round : ks.program())
    for (const auto& st : round)
      for (const auto& op : st.ops) switch (op.kind) {
          case KsOp::kAddKey:
            for (long i = 0; i < op.size; ++i) x[op.offset + i] = F.add(x[op.offset + i], key[i]);
            break;
          case KsOp::kKeyMul: {
            if (irc >= mat.rc.size() || long(mat.rc[irc].size()) != op.size)
              throw Error(msg(sp.id, ": step ", st.name, ": KeyMul ", irc, " has no rc of ", op.size, " elements"));
            const auto& rc = mat.rc[irc++];
            for (long i = 0; i < op.size; ++i) x[op.offset + i] = F.add(x[op.offset + i], F.mul(rc[i], key[i]));
            break;
          }
          case KsOp::kAffine: {
            Elements y(x.begin() + op.offset, x.begin() + op.offset + op.size);
            if (op.matrix) {
              if (iM >= mat.M.size() || long(mat.M[iM].size()) != op.size)
                throw Error(msg(sp.id, ": step ", st.name, ": Affine matrix ", iM, " is not ", op.size, " x ", op.size));
              const auto& M = mat.M[iM++];
              for (long i = 0; i < op.size; ++i) {
                if (long(M[i].size()) != op.size) throw Error(msg(sp.id, ": step ", st.name, ": matrix row ", i));
                uint64_t s = 0;
                for (long j = 0; j < op.size; ++j) s = F.add(s, F.mul(M[i][j], x[op.offset + j]));
                y[i] = s;
              }
            }
            if (ic >= mat.c.size() || long(mat.c[ic].size()) != op.size)
              throw Error(msg(sp.id, ": step ", st.name, ": Affine constant ", ic, " is not ", op.size, " elements"));
            const auto& c = mat.c[ic++];
            for (long i = 0; i < op.size; ++i) x[op.offset + i] = F.add(y[i], c[i]);
            break;
          }
          case KsOp::kLinear: {
            Elements y(x.size(), 0);
            for (const auto& t : op.L) y[t.out] = F.add(y[t.out], F.mul(t.coeff, x[t.in]));
            x = y;
            break;
          }
          case KsOp::kQuadratic: {
            Elements y = x;
            for (const auto& t : op.L) y[t.out] = F.add(y[t.out], F.mul(t.coeff, x[t.in]));
            for (const auto& t : op.Q) y[t.out] = F.add(y[t.out], F.mul(t.coeff, F.mul(x[t.a], x[t.b])));
            x = y;
            break;
          }
          case KsOp::kPower:
            for (auto& v : x) v = F.pow(v, op.e);
            break;
          case KsOp::kTruncate:
            x.resize(op.size);
            break;
        }
  if (iM != mat.M.size() || ic != mat.c.size() || irc != mat.rc.size())
    throw Error(msg(sp.id, ": the material has ", mat.M.size(), " matrices, ", mat.c.size(), " constants and ",
                    mat.rc.size(), " rc vectors; the program used ", iM, ", ", ic, " and ", irc));
  return x;
}

}  // namespace cb
