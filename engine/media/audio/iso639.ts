/**
 * ISO 639-1 codes ("de") to ISO 639-2 ("ger", the bibliographic form where there are two): the
 * MP4 muxer and Matroska store a track's language in three letters, and ffmpeg drops a
 * two-letter one. Generated from the iso-codes package's iso_639-2.json (184 codes).
 */
const PACKED = "aaaar ababk aeave afafr akaka amamh anarg arara asasm avava ayaym azaze babak bebel bgbul bhbih bibis bmbam bnben botib brbre bsbos cacat ceche chcha cocos crcre cscze cuchu cvchv cywel dadan deger dvdiv dzdzo eeewe elgre eneng eoepo esspa etest eubaq faper ffful fifin fjfij fofao frfre fyfry gagle gdgla glglg gngrn guguj gvglv hahau heheb hihin hohmo hrhrv hthat huhun hyarm hzher iaina idind ieile igibo iiiii ikipk ioido isice itita iuiku jajpn jvjav kageo kgkon kikik kjkua kkkaz klkal kmkhm knkan kokor krkau kskas kukur kvkom kwcor kykir lalat lbltz lglug lilim lnlin lolao ltlit lulub lvlav mgmlg mhmah mimao mkmac mlmal mnmon mrmar msmay mtmlt mybur nanau nbnob ndnde nenep ngndo nldut nnnno nonor nrnbl nvnav nynya ococi ojoji omorm orori ososs papan pipli plpol pspus ptpor quque rmroh rnrun rorum rurus rwkin sasan scsrd sdsnd sesme sgsag sisin skslo slslv smsmo snsna sosom sqalb srsrp ssssw stsot susun svswe swswa tatam tetel tgtgk ththa titir tktuk tltgl tntsn toton trtur tstso tttat twtwi tytah uguig ukukr ururd uzuzb veven vivie vovol wawln wowol xhxho yiyid yoyor zazha zhchi zuzul";

let table: Map<string, string> | undefined;

/** A language tag's three-letter code ("de-AT" → "ger", "en-desc" → "eng", "fil" → "fil"); undefined when there is none. */
export function iso639Alpha3(tag: string): string | undefined {
  const primary = tag.split("-")[0]!.toLowerCase();
  if (/^[a-z]{3}$/.test(primary)) return primary;
  table ??= new Map(PACKED.split(" ").map((pair) => [pair.slice(0, 2), pair.slice(2)]));
  return table.get(primary);
}
