//! The WSDL served at `?wsdl`: exactly the two operations served, their
//! parameters, the game's fields in the order they are written, and the
//! results' names from the enums the answers are written from. Clients
//! that read it (Lucas Chess by suds, zeep) build their requests from it.

use super::{MoveResult, NAMESPACE, XfccResult};

/// `XfccGame`'s fields: name, XML Schema type, and whether it may be left
/// out (`minOccurs="0"`). [`super::soap::games_response`] writes them in
/// this order (a test holds it).
pub const GAME_FIELDS: &[(&str, &str, bool)] = &[
    ("id", "s:int", false),
    ("white", "s:string", false),
    ("black", "s:string", false),
    ("event", "s:string", false),
    ("site", "s:string", false),
    ("myTurn", "s:boolean", false),
    ("hasWhite", "s:boolean", false),
    ("daysPlayer", "s:int", false),
    ("hoursPlayer", "s:int", false),
    ("minutesPlayer", "s:int", false),
    ("daysOpponent", "s:int", false),
    ("hoursOpponent", "s:int", false),
    ("minutesOpponent", "s:int", false),
    ("moves", "s:string", false),
    ("drawOffered", "s:boolean", false),
    ("result", "tns:Result", false),
    ("message", "s:string", true),
    ("setup", "s:boolean", false),
    ("eventDate", "s:string", false),
    ("timeControl", "s:string", false),
    ("round", "s:string", false),
    ("board", "s:int", true),
    ("gameLink", "s:string", true),
];

/// `MakeAMove`'s parameters, in the order the clients send them.
const MOVE_PARAMETERS: &[(&str, &str)] = &[
    ("username", "s:string"),
    ("password", "s:string"),
    ("gameId", "s:int"),
    ("resign", "s:boolean"),
    ("acceptDraw", "s:boolean"),
    ("movecount", "s:int"),
    ("myMove", "s:string"),
    ("offerDraw", "s:boolean"),
    ("claimDraw", "s:boolean"),
    ("myMessage", "s:string"),
];

/// The WSDL of the service at `location` (its URL as the clients reach it).
pub fn wsdl(location: &str) -> String {
    let element = |name: &str, kind: &str, optional: bool| {
        let min = if optional || kind == "s:string" { 0 } else { 1 };
        format!("<s:element minOccurs=\"{min}\" maxOccurs=\"1\" name=\"{name}\" type=\"{kind}\"/>")
    };
    let game: String = GAME_FIELDS
        .iter()
        .map(|(name, kind, optional)| element(name, kind, *optional))
        .collect();
    let make_a_move: String = MOVE_PARAMETERS
        .iter()
        .map(|(name, kind)| element(name, kind, false))
        .collect();
    let enumeration = |names: &mut dyn Iterator<Item = &'static str>| -> String {
        names
            .map(|name| format!("<s:enumeration value=\"{name}\"/>"))
            .collect()
    };
    let results = enumeration(&mut XfccResult::ALL.iter().map(|r| r.name()));
    let answers = enumeration(&mut MoveResult::ALL.iter().map(|r| r.name()));
    let location = quick_xml::escape::escape(location);
    // Each operation's messages, its place in the port type, and its
    // binding (its SOAPAction the namespace and its name, as
    // scidCommunity sends it).
    let (mut messages, mut port_operations, mut bound_operations) =
        (String::new(), String::new(), String::new());
    for op in ["GetMyGames", "MakeAMove"] {
        messages.push_str(&format!(
            "<wsdl:message name=\"{op}SoapIn\"><wsdl:part name=\"parameters\" element=\"tns:{op}\"/></wsdl:message>\
             <wsdl:message name=\"{op}SoapOut\"><wsdl:part name=\"parameters\" element=\"tns:{op}Response\"/></wsdl:message>"
        ));
        port_operations.push_str(&format!(
            "<wsdl:operation name=\"{op}\"><wsdl:input message=\"tns:{op}SoapIn\"/>\
             <wsdl:output message=\"tns:{op}SoapOut\"/></wsdl:operation>"
        ));
        bound_operations.push_str(&format!(
            "<wsdl:operation name=\"{op}\">\
             <soap:operation soapAction=\"{NAMESPACE}/{op}\" style=\"document\"/>\
             <wsdl:input><soap:body use=\"literal\"/></wsdl:input>\
             <wsdl:output><soap:body use=\"literal\"/></wsdl:output></wsdl:operation>"
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <wsdl:definitions xmlns:soap=\"http://schemas.xmlsoap.org/wsdl/soap/\" \
         xmlns:s=\"http://www.w3.org/2001/XMLSchema\" xmlns:tns=\"{NAMESPACE}\" \
         xmlns:wsdl=\"http://schemas.xmlsoap.org/wsdl/\" targetNamespace=\"{NAMESPACE}\">\
         <wsdl:types><s:schema elementFormDefault=\"qualified\" targetNamespace=\"{NAMESPACE}\">\
         <s:element name=\"GetMyGames\"><s:complexType><s:sequence>{login}</s:sequence></s:complexType></s:element>\
         <s:element name=\"GetMyGamesResponse\"><s:complexType><s:sequence>\
         <s:element minOccurs=\"0\" maxOccurs=\"1\" name=\"GetMyGamesResult\" type=\"tns:ArrayOfXfccGame\"/>\
         </s:sequence></s:complexType></s:element>\
         <s:complexType name=\"ArrayOfXfccGame\"><s:sequence>\
         <s:element minOccurs=\"0\" maxOccurs=\"unbounded\" name=\"XfccGame\" type=\"tns:XfccGame\"/>\
         </s:sequence></s:complexType>\
         <s:complexType name=\"XfccGame\"><s:sequence>{game}</s:sequence></s:complexType>\
         <s:simpleType name=\"Result\"><s:restriction base=\"s:string\">{results}</s:restriction></s:simpleType>\
         <s:element name=\"MakeAMove\"><s:complexType><s:sequence>{make_a_move}</s:sequence></s:complexType></s:element>\
         <s:element name=\"MakeAMoveResponse\"><s:complexType><s:sequence>\
         <s:element minOccurs=\"1\" maxOccurs=\"1\" name=\"MakeAMoveResult\" type=\"tns:MakeAMoveResult\"/>\
         </s:sequence></s:complexType></s:element>\
         <s:simpleType name=\"MakeAMoveResult\"><s:restriction base=\"s:string\">{answers}</s:restriction></s:simpleType>\
         </s:schema></wsdl:types>\
         {messages}\
         <wsdl:portType name=\"XfccBasicSoap\">{port_operations}</wsdl:portType>\
         <wsdl:binding name=\"XfccBasicSoap\" type=\"tns:XfccBasicSoap\">\
         <soap:binding transport=\"http://schemas.xmlsoap.org/soap/http\"/>{bound_operations}</wsdl:binding>\
         <wsdl:service name=\"XfccBasic\"><wsdl:port name=\"XfccBasicSoap\" binding=\"tns:XfccBasicSoap\">\
         <soap:address location=\"{location}\"/></wsdl:port></wsdl:service>\
         </wsdl:definitions>\n",
        login = MOVE_PARAMETERS[..2]
            .iter()
            .map(|(name, kind)| element(name, kind, false))
            .collect::<String>(),
    )
}
